; `-1` is a symbol in SMT-LIB, not a number: the message says how to write it.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x -1) (P x))))
(check-sat)
