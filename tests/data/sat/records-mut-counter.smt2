; A record (one constructor, Int fields) as Rust's `&mut` is encoded: flattened into its two
; fields, the invariant is cur = k. Also a nested record with a Boolean field, read through
; selectors, compared as a whole, and tested.
(set-logic HORN)
(declare-datatypes ((Mut 0) (Pair 0))
  (((mut (cur Int) (ret Int)))
   ((pair (fst Mut) (flag Bool)))))
(declare-fun inv (Pair Int) Bool)
(assert (forall ((p Pair))
  (=> (= p (pair (mut 0 7) true)) (inv p 0))))
(assert (forall ((p Pair) (q Pair) (k Int))
  (=> (and (inv p k) (< k 10) ((_ is pair) p)
           (= q (ite (flag p) (pair (mut (+ (cur (fst p)) 1) (ret (fst p))) true) p)))
      (inv q (+ k 1)))))
(assert (forall ((p Pair) (k Int))
  (=> (and (inv p k) (or (not (= (cur (fst p)) k)) (not (= (ret (fst p)) 7)) (not (flag p)))) false)))
(check-sat)
