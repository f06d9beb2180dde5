// expect: 2:1: unterminated conditional (no #endif)
#if 1
int main() { return 0; }
