// `&a[i].n` and pointer arithmetic over an array of structs.
extern void reach_error(void);
struct S { int n; int m; };
struct S a[4];
int main() {
  int *p = &a[1].n;
  *p = 5;
  struct S *s = a;
  s = s + 1;
  if (s->n != 5 || a[1].n != 5) reach_error();
  s->m = 6;
  struct S *t = &a[3];
  if (t - s != 2) reach_error();
  if (!(s < t)) reach_error();
  if (a[1].m != 6 || a[0].m != 0) reach_error();
  return 0;
}
