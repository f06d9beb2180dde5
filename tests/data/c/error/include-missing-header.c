// expect: 3:1: unsupported: #include of `does_not_exist.h`
// A header that is not a standard one is never read: answering without it could be wrong.
#include "does_not_exist.h"
int main(void) { return 0; }
