// expect: 2:1: unsupported: struct types
struct point { int x; int y; } origin;
int main() { return 0; }
