; Fill a[0..n) with 2, then sum it: s = 2i in the second loop, over every cell below n. The
; samples of the cells alone never get past the first loop (each step reads the array at two
; cells, two instances that random states rarely match); projections of the system's own
; samples do, and give the sum's equality.
(set-logic HORN)
(declare-fun fill ((Array Int Int) Int Int) Bool)
(declare-fun sum ((Array Int Int) Int Int Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int))
  (=> (> n 0) (fill a 0 n))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (< i n) (= b (store a i 2))) (fill b (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (>= i n)) (sum a 0 0 n))))
(assert (forall ((a (Array Int Int)) (i Int) (s Int) (n Int))
  (=> (and (sum a i s n) (< i n)) (sum a (+ i 1) (+ s (select a i)) n))))
(assert (forall ((a (Array Int Int)) (i Int) (s Int) (n Int))
  (=> (and (sum a i s n) (>= i n) (not (= s (* 2 n)))) false)))
(check-sat)
