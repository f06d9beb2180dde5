// expect: 3:11: conflicting types for `g`
int g;
long long g;
int main() { return 0; }
