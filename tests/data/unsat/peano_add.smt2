; add(x, y, z): z = x + y over Peano naturals. The query asks for add(2, 0, z) with z a
; successor: add(0, 0, 0), add(1, 0, 1), add(2, 0, 2) is the failing run.
(set-logic HORN)
(declare-datatypes ((Nat 0)) (((Z) (S (pred Nat)))))
(declare-fun add (Nat Nat Nat) Bool)
(assert (forall ((y Nat)) (add (as Z Nat) y y)))
(assert (forall ((x Nat) (y Nat) (z Nat)) (=> (add x y z) (add (S x) y (S z)))))
(assert (forall ((x Nat) (y Nat) (z Nat))
  (=> (and (add x y z) (= x (S (S Z))) (= y Z) ((_ is S) z)) false)))
(check-sat)
