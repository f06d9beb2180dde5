; Invariant: P(x) <=> x = 0. The file starts with a UTF-8 byte-order mark (it was an
; invisible "invalid character").
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))
(check-sat)
