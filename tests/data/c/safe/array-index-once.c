// The index of a compound assignment or increment is evaluated once.
extern void reach_error(void);
int main() {
  int a[4] = {0};
  int i = 0;
  a[i++] += 5;
  a[i++]++;
  a[++i] = a[0] * 2;
  if (i != 3 || a[0] != 5 || a[1] != 1 || a[3] != 10) reach_error();
  return 0;
}
