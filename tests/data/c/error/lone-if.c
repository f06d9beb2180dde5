// expect: 2:1: unsupported: preprocessor directive #if
#if 1
int main() { return 0; }
