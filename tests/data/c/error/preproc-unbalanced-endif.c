// expect: 8:1: #endif without #if
// One `#endif` too many.
#ifdef X
int x;
#else
int y;
#endif
#endif
int main() { return 0; }
