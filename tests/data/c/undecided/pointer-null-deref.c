// A null dereference is undefined behaviour. Under unreach-call it does not end the execution
// quietly (which would make the error after it unreachable and the program "safe"): SV-COMP
// labels such a program as violating the property, and no run can replay the error call. The
// answer is unknown, naming the dereference.
extern void reach_error(void);
int *gp;
int main() {
  *gp = 2;
  reach_error();
  return 0;
}
