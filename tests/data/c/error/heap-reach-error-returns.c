// expect: 4:6: unsupported: a definition of `reach_error` that may return, under a memory property
// property: valid-memsafety
#include <stdlib.h>
void reach_error() {}
int main(void) { return 0; }
