// Array fields of structs, directly and through pointers (`p->data[i]`, `&p->data[i]`).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
struct buf { int len; int data[16]; };
struct buf b1, b2;
void put(struct buf *b, int x) {
  if (b->len < 16) {
    b->data[b->len] = x;
    b->len++;
  }
}
int main() {
  struct buf *b = __VERIFIER_nondet_bool() ? &b1 : &b2;
  int n = __VERIFIER_nondet_int();
  for (int k = 0; k < n && k < 20; k++) {
    put(b, k);
    int *last = &b->data[b->len - 1];
    if (b->len < 16 && *last != k) reach_error();
  }
  if (b1.len > 16 || b2.len > 16) reach_error();
  struct buf local;
  local.data[3] = 4;
  local.data[2] = 1;
  if (local.data[3] + local.data[2] != 5) reach_error();
  return 0;
}
