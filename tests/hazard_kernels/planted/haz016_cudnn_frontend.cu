// expect: HAZ016 3
// A convolution graph built with NVIDIA's cudnn_frontend (C++ over cuDNN's backend API): no MIOpen build.
#include <cudnn_frontend.h>

namespace fe = cudnn_frontend;

std::shared_ptr<fe::graph::Graph> makeGraph() {
    auto graph = std::make_shared<fe::graph::Graph>();
    graph->set_io_data_type(fe::DataType_t::HALF).set_compute_data_type(fe::DataType_t::FLOAT);
    return graph;
}
