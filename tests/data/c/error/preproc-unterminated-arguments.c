// expect: 5:10: unterminated argument list of macro `F`
// The argument list of a macro use runs to the end of the file.
#define F(x) (x)
int main() {
  return F((1);
}
