// The other buffer is written through the pointer when both pointers agree.
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
struct buf { int len; int data[4]; };
struct buf b1, b2;
int main() {
  struct buf *p = __VERIFIER_nondet_bool() ? &b1 : &b2;
  struct buf *q = __VERIFIER_nondet_bool() ? &b1 : &b2;
  p->data[2] = 9;
  if (q->data[2] == 9 && q == &b2) reach_error();
  return 0;
}
