// property: valid-memsafety valid-deref
#include <stdlib.h>
int *g;
void init(void) {
  g = alloca(sizeof(int));
  *g = 1;
}
int main(void) {
  init();
  return *g; // the block died when `init` returned
}
