; Ackermann's function with nested calls, and a query over two calls of it: A(1,2) = 4 and
; A(2,1) = 5 differ, so unsat. Exercises obligations for clauses with two atoms of one
; predicate, the shape on which PDR once spawned the same obligation forever (dropping every
; preference of an unsat core at once; seen on llreve faulty/ackermann-, not on this file).
(set-logic HORN)
(declare-fun f (Int Int Int) Bool)
(assert (forall ((m Int) (n Int) (r Int)) (=> (and (= m 0) (>= n 0) (= r (+ n 1))) (f m n r))))
(assert (forall ((m Int) (n Int) (r Int) (m1 Int) (s Int))
  (=> (and (f m1 1 s) (> m 0) (= n 0) (= m1 (- m 1)) (= r s)) (f m n r))))
(assert (forall ((m Int) (n Int) (r Int) (a Int) (b Int) (n1 Int))
  (=> (and (f m n1 a) (f (- m 1) a b) (> m 0) (> n 0) (= n1 (- n 1)) (= r b)) (f m n r))))
(assert (forall ((m Int) (n Int) (r Int) (r2 Int))
  (=> (and (f m n r) (f n m r2) (= m 1) (= n 2) (not (= r (+ r2 0)))) false)))
(check-sat)
