//! The activation functions of network nodes, and the exponential they are
//! built on.
//!
//! Every engine must compute a network's value bit for bit as the
//! interpreter does, on any machine: the JIT calls these very functions, and
//! the C and Rust exports carry a transcription of them (src/export). So the
//! exponential is not the platform's `exp` (libm implementations differ in
//! the last bit between glibc, musl and macOS) but fdlibm's `e_exp.c`
//! algorithm written with IEEE additions, multiplications and divisions
//! only, which round the same everywhere: accurate to within one unit in the
//! last place, and reproducible.

/// How a node turns its weighted sum into its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Activation {
    /// NEAT's steepened sigmoid `1 / (1 + exp(-4.9 x))` (Stanley and
    /// Miikkulainen 2002), the default of NEAT implementations.
    Sigmoid,
    /// `2 / (1 + exp(-2 x)) - 1`.
    Tanh,
    /// `x` if `x > 0`, else `0` (so NaN gives 0).
    Relu,
    /// `x` unchanged.
    Linear,
}

impl Activation {
    pub const ALL: [Activation; 4] = [Activation::Sigmoid, Activation::Tanh, Activation::Relu, Activation::Linear];

    pub fn name(self) -> &'static str {
        match self {
            Activation::Sigmoid => "sigmoid",
            Activation::Tanh => "tanh",
            Activation::Relu => "relu",
            Activation::Linear => "linear",
        }
    }

    pub fn from_name(name: &str) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The node's value for its weighted sum `x`.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Activation::Sigmoid => sigmoid(x),
            Activation::Tanh => tanh(x),
            Activation::Relu => relu(x),
            Activation::Linear => x,
        }
    }
}

/// NEAT's steepened sigmoid.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + exp(-4.9 * x))
}

/// The hyperbolic tangent through [`exp`].
pub fn tanh(x: f64) -> f64 {
    2.0 / (1.0 + exp(-2.0 * x)) - 1.0
}

pub fn relu(x: f64) -> f64 {
    if x > 0.0 { x } else { 0.0 }
}

/// fdlibm's constants, spelled as in `e_exp.c` so the two can be compared
/// (each reads as the double fdlibm means; clippy would shorten them).
#[allow(clippy::excessive_precision, clippy::approx_constant)]
mod fdlibm {
    pub const O_THRESHOLD: f64 = 7.097_827_128_933_839_730_96e2;
    pub const U_THRESHOLD: f64 = -7.451_332_191_019_411_084_20e2;
    pub const HALF_LN2: f64 = 3.465_735_902_799_726_547_09e-1;
    pub const THREE_HALVES_LN2: f64 = 1.039_720_770_839_917_964_13;
    pub const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-1;
    pub const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;
    pub const INV_LN2: f64 = 1.442_695_040_888_963_387_00;
    pub const TINY: f64 = 3.725_290_298_461_914_062_5e-9; // 2^-28
    pub const P1: f64 = 1.666_666_666_666_660_190_37e-1;
    pub const P2: f64 = -2.777_777_777_701_559_338_42e-3;
    pub const P3: f64 = 6.613_756_321_437_934_361_17e-5;
    pub const P4: f64 = -1.653_390_220_546_525_153_90e-6;
    pub const P5: f64 = 4.138_136_797_057_238_460_39e-8;
}

use fdlibm::*;

/// `e^x` by fdlibm's algorithm: `x = k ln2 + r` with `|r| <= ln2 / 2`
/// (`ln2` split in two so `k ln2` is exact), a rational approximation of
/// `e^r`, then scaling by `2^k` ([`scale`]). NaN gives its argument back;
/// beyond the thresholds, `inf` and `0`.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > O_THRESHOLD {
        return f64::INFINITY;
    }
    if x < U_THRESHOLD {
        return 0.0;
    }
    let ax = x.abs();
    let (hi, lo, k) = if ax > HALF_LN2 {
        let k = if ax < THREE_HALVES_LN2 {
            if x < 0.0 { -1 } else { 1 }
        } else {
            // Truncation towards zero, as C's `(int)`; |x| < 746, so it fits.
            (INV_LN2 * x + if x < 0.0 { -0.5 } else { 0.5 }) as i32
        };
        let kf = f64::from(k);
        (x - kf * LN2_HI, kf * LN2_LO, k)
    } else if ax > TINY {
        (x, 0.0, 0)
    } else {
        return 1.0 + x;
    };
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if k == 0 {
        return 1.0 - ((r * c) / (c - 2.0) - r);
    }
    let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    scale(y, k)
}

/// `y × 2^k` for `y` near 1 and `k` in [-1075, 1024], rounded once (musl's
/// `scalbn`): large and small `k` first take exact steps, so the last
/// multiplication, by a normal power of two, is the only one that rounds.
pub fn scale(y: f64, k: i32) -> f64 {
    let (mut y, mut n) = (y, k);
    if n > 1023 {
        y *= pow2(1023);
        n -= 1023;
        if n > 1023 {
            y *= pow2(1023);
            n = (n - 1023).min(1023);
        }
    } else if n < -1022 {
        y *= pow2(-1022) * pow2(53);
        n += 1022 - 53;
        if n < -1022 {
            y *= pow2(-1022) * pow2(53);
            n = (n + 1022 - 53).max(-1022);
        }
    }
    y * pow2(n)
}

/// `2^n` for `n` in [-1022, 1023], from its bits.
fn pow2(n: i32) -> f64 {
    f64::from_bits(((0x3ff + n) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f64, b: f64) -> u64 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
    }

    #[test]
    fn exp_is_within_one_ulp_of_the_platform() {
        let mut x = -745.0_f64;
        while x < 709.7 {
            let (ours, libm) = (exp(x), x.exp());
            assert!(ulps(ours, libm) <= 1 || (ours == 0.0 && libm < 1e-300), "{x}: {ours} vs {libm}");
            x += 0.0137;
        }
        for x in [0.0, -0.0, 1e-300, -1e-300, 1e-9, 0.3, 0.35, 0.5, 1.0, 1.04, -1.04, 2.0, 700.0, -700.0] {
            assert!(ulps(exp(x), x.exp()) <= 1, "{x}");
        }
    }

    #[test]
    fn exp_edges() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(1000.0), f64::INFINITY);
        assert_eq!(exp(f64::INFINITY), f64::INFINITY);
        assert_eq!(exp(-1000.0), 0.0);
        assert_eq!(exp(f64::NEG_INFINITY), 0.0);
        assert!(exp(f64::NAN).is_nan());
        assert!(exp(-740.0) > 0.0 && exp(-740.0) < f64::MIN_POSITIVE, "subnormal");
        assert_eq!(exp(O_THRESHOLD), O_THRESHOLD.exp());
    }

    #[test]
    fn activations() {
        assert_eq!(sigmoid(0.0), 0.5);
        assert_eq!(sigmoid(1000.0), 1.0);
        assert_eq!(sigmoid(-1000.0), 0.0);
        assert!(sigmoid(f64::NAN).is_nan());
        assert_eq!(tanh(0.0), 0.0);
        assert!((tanh(0.5) - 0.5f64.tanh()).abs() < 1e-15);
        assert_eq!(relu(-0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(relu(f64::NAN), 0.0);
        assert_eq!(relu(2.5), 2.5);
        for a in Activation::ALL {
            assert_eq!(Activation::from_name(a.name()), Some(a));
        }
    }
}
