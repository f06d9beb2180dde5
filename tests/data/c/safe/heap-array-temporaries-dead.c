#include <stdlib.h>
extern void abort(void);
#include <assert.h>
void reach_error() { assert(0); }
// `a[i] = a[i] + 1` saves the address and the value in temporaries, each assigned before it is
// read within the statement: neither is live at the loop head, so neither is an argument of
// the loop's predicate.
int main(void) {
  int *a = malloc(3 * sizeof(int));
  if (a == NULL) return 0;
  for (int i = 0; i < 3; i++) {
    a[i] = i;
    a[i] = a[i] + 1;
  }
  if (a[2] != 3) { reach_error(); abort(); }
  free(a);
  return 0;
}
