// An uninitialised scalar declared with an array: its witness assumption is still written.
extern void reach_error(void);
int main() {
  int i, a[3] = {0};
  a[1] = i;
  if (a[1] == 5) reach_error();
  return 0;
}
