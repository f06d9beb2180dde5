// expect: 2:1: unsupported: unions
union point { int x; int y; } origin;
int main() { return 0; }
