// expect: 2:28: unsupported: multi-dimensional arrays in structs
struct buf { int len; char data[4][4]; };
int main() {
  struct buf b;
  b.len = 0;
  return 0;
}
