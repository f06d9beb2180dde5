// A static local keeps its value between calls (it used to be initialised again on every
// call, and this program was answered `safe`).
extern void reach_error(void);
int count(void) { static int n; n++; return n; }
int main() {
  count();
  if (count() == 2) reach_error();
  return 0;
}
