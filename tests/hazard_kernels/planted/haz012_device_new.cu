// expect: HAZ012 5
// An object built with new in device code.
struct Node { int key; Node* next; };

__device__ Node* push(Node* head, int key) { Node* n = new Node; n->key = key; n->next = head; return n; }

__global__ void build(Node** heads, const int* keys) {
    heads[threadIdx.x] = push(nullptr, keys[threadIdx.x]);
}
