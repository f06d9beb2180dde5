// expect: 2:28: unsupported: arrays in structs
struct buf { int len; char data[16]; };
int main() {
  struct buf b;
  b.len = 0;
  return 0;
}
