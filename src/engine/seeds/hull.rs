//! Exact linear algebra over sample points: the affine hull of a set of rational vectors as
//! linear equalities with integer coefficients, by Gaussian elimination over ℚ.
//!
//! Duty: given points `p_1 .. p_m` in ℚⁿ, return a basis of the equalities `a·x + c = 0` that
//! every point satisfies (the orthogonal complement of the points' affine span), each scaled to
//! coprime integers. Must not: touch terms or solvers (pure arithmetic, unit-tested).

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// An equality `coeffs · x + constant = 0` with coprime integer coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equality {
    /// One coefficient per coordinate.
    pub coeffs: Vec<BigInt>,
    /// The constant term.
    pub constant: BigInt,
}

/// Reduced row echelon form of `rows` in place; returns the pivot column of each nonzero row.
fn rref(rows: &mut Vec<Vec<BigRational>>, cols: usize) -> Vec<usize> {
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(k) = (r..rows.len()).find(|&k| !rows[k][c].is_zero()) else {
            continue;
        };
        rows.swap(r, k);
        let inv = BigRational::one() / rows[r][c].clone();
        for x in rows[r].iter_mut() {
            *x = &*x * &inv;
        }
        for k in 0..rows.len() {
            if k != r && !rows[k][c].is_zero() {
                let f = rows[k][c].clone();
                let (top, rest) = if k < r {
                    let (a, b) = rows.split_at_mut(r);
                    (&b[0], &mut a[k])
                } else {
                    let (a, b) = rows.split_at_mut(k);
                    (&a[r], &mut b[0])
                };
                for (x, y) in rest.iter_mut().zip(top.iter()) {
                    *x = &*x - &f * y;
                }
            }
        }
        pivots.push(c);
        r += 1;
        if r == rows.len() {
            break;
        }
    }
    rows.truncate(r);
    pivots
}

/// The equalities every point satisfies (a basis; empty when the points span ℚⁿ affinely or
/// there are no points). All points must have length `n`.
pub fn affine_hull(points: &[Vec<BigRational>], n: usize) -> Vec<Equality> {
    if points.is_empty() {
        return Vec::new();
    }
    // Rows (x_1 .. x_n, 1): a vector (a, c) in the null space is an equality a·x + c = 0.
    let mut rows: Vec<Vec<BigRational>> = points
        .iter()
        .map(|p| {
            let mut r = p.clone();
            r.push(BigRational::one());
            r
        })
        .collect();
    let cols = n + 1;
    let pivots = rref(&mut rows, cols);
    let mut out = Vec::new();
    for free in (0..cols).filter(|c| !pivots.contains(c)) {
        let mut v = vec![BigRational::zero(); cols];
        v[free] = BigRational::one();
        for (row, &pc) in rows.iter().zip(&pivots) {
            v[pc] = -row[free].clone();
        }
        if let Some(eq) = integral(&v) {
            out.push(eq);
        }
    }
    out
}

/// Coordinates that are affinely independent on the points: the others are affine functions
/// of these on every point (the pivot columns of the points' echelon form, in order).
pub fn independent(points: &[Vec<BigRational>], n: usize) -> Vec<usize> {
    let mut rows: Vec<Vec<BigRational>> = points
        .iter()
        .map(|p| {
            let mut r = vec![BigRational::one()];
            r.extend(p.iter().cloned());
            r
        })
        .collect();
    rref(&mut rows, n + 1)
        .into_iter()
        .filter(|&c| c > 0)
        .map(|c| c - 1)
        .collect()
}

/// Scales a rational vector `(a, c)` to coprime integers with a positive first nonzero entry;
/// `None` when `a` is zero (no constraint on the coordinates).
fn integral(v: &[BigRational]) -> Option<Equality> {
    let a = &v[..v.len() - 1];
    if a.iter().all(Zero::is_zero) {
        return None;
    }
    let lcm = v.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
    let mut ints: Vec<BigInt> = v
        .iter()
        .map(|x| (x * BigRational::from_integer(lcm.clone())).to_integer())
        .collect();
    let g = ints.iter().fold(BigInt::zero(), |g, x| g.gcd(x));
    let first = a.iter().position(|x| !x.is_zero())?;
    let sign = if ints[first].is_negative() { -1 } else { 1 };
    for x in ints.iter_mut() {
        *x = &*x / &g * sign;
    }
    let constant = ints.pop()?;
    Some(Equality {
        coeffs: ints,
        constant,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[&[i64]]) -> Vec<Vec<BigRational>> {
        v.iter()
            .map(|p| {
                p.iter()
                    .map(|&x| BigRational::from_integer(x.into()))
                    .collect()
            })
            .collect()
    }

    fn holds(eq: &Equality, p: &[BigRational]) -> bool {
        let mut s = BigRational::from_integer(eq.constant.clone());
        for (a, x) in eq.coeffs.iter().zip(p) {
            s += BigRational::from_integer(a.clone()) * x;
        }
        s.is_zero()
    }

    #[test]
    fn sum_loop_gives_sn_equal_two_i_minus_two() {
        // (i, n, sn) with sn = 2 (i - 1) and n free.
        let p = pts(&[&[1, 5, 0], &[2, 5, 2], &[3, 7, 4], &[1, -3, 0], &[4, 9, 6]]);
        let eqs = affine_hull(&p, 3);
        assert_eq!(
            eqs,
            vec![Equality {
                coeffs: vec![2.into(), 0.into(), (-1).into()],
                constant: (-2).into()
            }]
        );
    }

    #[test]
    fn every_equality_holds_on_every_point_and_the_count_is_the_codimension() {
        // Points on the line x = t, y = 3t + 1, z = -t: codimension 2 in ℚ³.
        let p = pts(&[&[0, 1, 0], &[1, 4, -1], &[2, 7, -2]]);
        let eqs = affine_hull(&p, 3);
        assert_eq!(eqs.len(), 2);
        for e in &eqs {
            for q in &p {
                assert!(holds(e, q), "{e:?} on {q:?}");
            }
        }
        // A point off the line violates one of them.
        let off = pts(&[&[1, 5, -1]]);
        assert!(eqs.iter().any(|e| !holds(e, &off[0])));
    }

    #[test]
    fn one_point_fixes_every_coordinate_and_spanning_points_give_nothing() {
        let eqs = affine_hull(&pts(&[&[3, -2]]), 2);
        assert_eq!(eqs.len(), 2);
        assert!(eqs.iter().all(|e| holds(e, &pts(&[&[3, -2]])[0])));
        let spanning = pts(&[&[0, 0], &[1, 0], &[0, 1], &[5, 7]]);
        assert!(affine_hull(&spanning, 2).is_empty());
        assert!(affine_hull(&[], 2).is_empty());
    }

    #[test]
    fn dependent_coordinates_are_left_out() {
        // z = 2x + 1 on every point: x and y are independent, z is not.
        let p = pts(&[&[0, 0, 1], &[1, 5, 3], &[2, 1, 5], &[3, 3, 7]]);
        assert_eq!(independent(&p, 3), vec![0, 1]);
    }

    #[test]
    fn rational_points_give_coprime_integer_coefficients() {
        // y = x / 2 + 1/3, i.e. 3x - 6y + 2 = 0.
        let r = |a: i64, b: i64| BigRational::new(a.into(), b.into());
        let p = vec![vec![r(0, 1), r(1, 3)], vec![r(2, 1), r(4, 3)]];
        let eqs = affine_hull(&p, 2);
        assert_eq!(
            eqs,
            vec![Equality {
                coeffs: vec![3.into(), (-6).into()],
                constant: 2.into()
            }]
        );
    }
}
