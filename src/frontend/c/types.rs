//! Integer types of the subset under a data model (SV-COMP's ILP32: char 8, short 16, int 32,
//! long 32, long long 64 bits; LP64: long 64 bits; plain `char` is signed), their ranges and C's
//! usual arithmetic conversions.
//!
//! Must not: know about terms or clauses, or keep a data model anywhere but in the types it
//! makes (the model is a parameter of whoever builds types: the resolver).

use num_bigint::BigInt;
use num_integer::Integer;

/// The data model: the width of `long` (and of pointers, which the subset does not have).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// `int`, `long` and pointers of 32 bits (SV-COMP's default).
    #[default]
    Ilp32,
    /// `int` of 32 bits, `long` and pointers of 64 bits.
    Lp64,
}

impl DataModel {
    /// SV-COMP's spelling: `ILP32` or `LP64`.
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// The width of `long` in bits.
    pub fn long_bits(self) -> u32 {
        match self {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        }
    }
}

impl std::fmt::Display for DataModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DataModel {
    type Err = String;

    /// `ILP32` or `LP64` (any case).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_uppercase().as_str() {
            "ILP32" => Ok(DataModel::Ilp32),
            "LP64" => Ok(DataModel::Lp64),
            _ => Err(format!(
                "unknown data model `{s}`: the data models are ILP32 and LP64"
            )),
        }
    }
}

/// An integer type: width, signedness and conversion rank (`_Bool` is the 1-bit unsigned type
/// of rank 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CType {
    /// Width in bits.
    pub bits: u32,
    /// Whether negative values exist.
    pub signed: bool,
    /// Conversion rank: 0 `_Bool`, 1 char, 2 short, 3 int, 4 long, 5 long long.
    pub rank: u8,
}

impl CType {
    /// `int`
    pub const INT: CType = CType {
        bits: 32,
        signed: true,
        rank: 3,
    };
    /// `unsigned int`
    pub const UINT: CType = CType {
        bits: 32,
        signed: false,
        rank: 3,
    };
    /// `_Bool`
    pub const BOOL: CType = CType {
        bits: 1,
        signed: false,
        rank: 0,
    };
    /// `char`
    pub const CHAR: CType = CType {
        bits: 8,
        signed: true,
        rank: 1,
    };

    /// The type of a given rank and signedness under a data model (rank 0 is `_Bool`).
    pub fn of_rank(rank: u8, signed: bool, model: DataModel) -> CType {
        let bits = match rank {
            0 => return CType::BOOL,
            1 => 8,
            2 => 16,
            3 => 32,
            4 => model.long_bits(),
            _ => 64,
        };
        CType { bits, signed, rank }
    }

    /// The unsigned type of the same rank and width.
    pub fn to_unsigned(self) -> CType {
        CType {
            signed: false,
            ..self
        }
    }

    /// Whether this is `_Bool`.
    pub fn is_bool(&self) -> bool {
        self.rank == 0
    }

    /// The smallest value.
    pub fn min(&self) -> BigInt {
        if self.signed {
            -(BigInt::from(1) << (self.bits - 1))
        } else {
            BigInt::from(0)
        }
    }

    /// The largest value.
    pub fn max(&self) -> BigInt {
        if self.signed {
            (BigInt::from(1) << (self.bits - 1)) - 1
        } else {
            (BigInt::from(1) << self.bits) - 1
        }
    }

    /// `2^bits`.
    pub fn modulus(&self) -> BigInt {
        BigInt::from(1) << self.bits
    }

    /// Whether every value of `self` is a value of `other`.
    pub fn fits_in(&self, other: &CType) -> bool {
        self.min() >= other.min() && self.max() <= other.max()
    }

    /// Whether `v` is a value of this type.
    pub fn contains(&self, v: &BigInt) -> bool {
        *v >= self.min() && *v <= self.max()
    }

    /// C's conversion of an integer value to this type: `_Bool` tests for non-zero, other types
    /// reduce modulo `2^bits` into their range.
    pub fn convert(&self, v: &BigInt) -> BigInt {
        if self.is_bool() {
            return BigInt::from(u8::from(*v != BigInt::from(0)));
        }
        if self.contains(v) {
            return v.clone();
        }
        let m = self.modulus();
        let r = v.mod_floor(&m);
        if r > self.max() {
            r - m
        } else {
            r
        }
    }

    /// The integer promotion: types of rank below `int` become `int`.
    pub fn promote(&self) -> CType {
        if self.rank < 3 {
            CType::INT
        } else {
            *self
        }
    }

    /// The C spelling, for messages and invariants.
    pub fn name(&self) -> &'static str {
        match (self.rank, self.signed) {
            (0, _) => "_Bool",
            (1, true) => "char",
            (1, false) => "unsigned char",
            (2, true) => "short",
            (2, false) => "unsigned short",
            (3, true) => "int",
            (3, false) => "unsigned int",
            (4, true) => "long",
            (4, false) => "unsigned long",
            (_, true) => "long long",
            (_, false) => "unsigned long long",
        }
    }
}

/// The usual arithmetic conversions: the common type of two operands.
pub fn common(a: CType, b: CType) -> CType {
    let (a, b) = (a.promote(), b.promote());
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.rank >= b.rank { a } else { b };
    }
    let (u, s) = if a.signed { (b, a) } else { (a, b) };
    if u.rank >= s.rank {
        u
    } else if s.bits > u.bits {
        s
    } else {
        s.to_unsigned()
    }
}
