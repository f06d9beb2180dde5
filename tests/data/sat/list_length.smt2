; len(l, n): n is the length of the integer list l. Lengths are never negative.
; Invariant: len(l, n) := n >= 0.
(set-logic HORN)
(declare-datatypes ((IntList 0)) (((nil) (cons (head Int) (tail IntList)))))
(declare-fun len (IntList Int) Bool)
(assert (len nil 0))
(assert (forall ((h Int) (t IntList) (n Int)) (=> (len t n) (len (cons h t) (+ n 1)))))
(assert (forall ((l IntList) (n Int)) (=> (and (len l n) (< n 0)) false)))
(check-sat)
