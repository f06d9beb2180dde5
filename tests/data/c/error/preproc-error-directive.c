// expect: 6:1: #error no 16-bit build
// `#error` stops in a group taken (and is ignored in one skipped).
#if 0
#error not this one
#elif 1
#error no 16-bit build
#endif
int main() { return 0; }
