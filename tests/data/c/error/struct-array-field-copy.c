// expect: 6:3: unsupported: copies of structs with array fields
struct buf { int len; int data[4]; };
int main() {
  struct buf b, c;
  b.len = 0;
  c = b;
  return c.len;
}
