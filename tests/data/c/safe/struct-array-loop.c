extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct pt { int x; unsigned char y; };
typedef struct pt P;
P g[8];
int main() {
  struct pt l[4];
  int i;
  for (i = 0; i < 8; i++) {
    __VERIFIER_assert(g[i].x == 0 && g[i].y == 0);
    g[i].x = i;
    g[i].y += 2;
    g[i].y++;
  }
  for (i = 0; i < 4; i++) {
    l[i].x = 2 * i;
    l[i].y = 300;
  }
  i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 4) {
    __VERIFIER_assert(l[i].x == 2 * i && l[i].y == 44);
    __VERIFIER_assert(g[2 * i].x == 2 * i && g[i].y == 3);
  }
  return 0;
}
