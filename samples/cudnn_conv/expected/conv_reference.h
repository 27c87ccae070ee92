// CPU reference for cudnn_conv: a 2-d cross-correlation in NCHW (what cuDNN calls CUDNN_CROSS_CORRELATION, with
// filters KCRS) and its two gradients, summed in double.
//
// One loop nest visits every product of the forward pass: output y[n][k][p][q] takes
// x[n][c][p*stride - pad + r*dilation][q*stride - pad + s*dilation] * w[k][c][r][s] for each input channel c and
// filter tap (r, s) that lands inside the input (zero padding elsewhere). The gradients are the same products read
// the other way: the data gradient adds dy[n][k][p][q] * w[k][c][r][s] into dx at the input element the product
// read, and the filter gradient adds dy[n][k][p][q] * x[...] into dw[k][c][r][s].
#pragma once

#include <cstddef>
#include <vector>

struct ConvShape {
    int n, c, h, w;  // input: batch, channels, height, width
    int k, r, s;     // filters: outputs, height, width
    int pad, stride, dilation;

    int out_h() const { return (h + 2 * pad - dilation * (r - 1) - 1) / stride + 1; }
    int out_w() const { return (w + 2 * pad - dilation * (s - 1) - 1) / stride + 1; }
    size_t x_size() const { return size_t(n) * c * h * w; }
    size_t w_size() const { return size_t(k) * c * r * s; }
    size_t y_size() const { return size_t(n) * k * out_h() * out_w(); }
};

// Calls visit(x_index, w_index, y_index) once for each product x[x_index] * w[w_index] that output y[y_index] sums.
template <typename Visit>
void for_each_product(const ConvShape& sh, Visit visit) {
    const int oh = sh.out_h(), ow = sh.out_w();
    for (int n = 0; n < sh.n; ++n)
        for (int k = 0; k < sh.k; ++k)
            for (int p = 0; p < oh; ++p)
                for (int q = 0; q < ow; ++q) {
                    const size_t yi = ((size_t(n) * sh.k + k) * oh + p) * ow + q;
                    for (int c = 0; c < sh.c; ++c)
                        for (int r = 0; r < sh.r; ++r) {
                            const int ih = p * sh.stride - sh.pad + r * sh.dilation;
                            if (ih < 0 || ih >= sh.h) continue;
                            for (int s = 0; s < sh.s; ++s) {
                                const int iw = q * sh.stride - sh.pad + s * sh.dilation;
                                if (iw < 0 || iw >= sh.w) continue;
                                const size_t xi = ((size_t(n) * sh.c + c) * sh.h + ih) * sh.w + iw;
                                const size_t wi = ((size_t(k) * sh.c + c) * sh.r + r) * sh.s + s;
                                visit(xi, wi, yi);
                            }
                        }
                }
}

inline std::vector<double> reference_forward(const ConvShape& sh, const std::vector<float>& x,
                                             const std::vector<float>& w) {
    std::vector<double> y(sh.y_size(), 0.0);
    for_each_product(sh, [&](size_t xi, size_t wi, size_t yi) { y[yi] += double(x[xi]) * w[wi]; });
    return y;
}

inline std::vector<double> reference_backward_data(const ConvShape& sh, const std::vector<float>& dy,
                                                   const std::vector<float>& w) {
    std::vector<double> dx(sh.x_size(), 0.0);
    for_each_product(sh, [&](size_t xi, size_t wi, size_t yi) { dx[xi] += double(dy[yi]) * w[wi]; });
    return dx;
}

inline std::vector<double> reference_backward_filter(const ConvShape& sh, const std::vector<float>& x,
                                                     const std::vector<float>& dy) {
    std::vector<double> dw(sh.w_size(), 0.0);
    for_each_product(sh, [&](size_t xi, size_t wi, size_t yi) { dw[wi] += double(dy[yi]) * x[xi]; });
    return dw;
}
