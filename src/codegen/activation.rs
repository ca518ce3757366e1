//! The activation functions of networks (src/lang/activation.rs) as C and
//! Rust source, written out once per exported file before the functions that
//! call them. They are transcriptions of the Rust the interpreter runs,
//! operation for operation (fdlibm's `exp` with IEEE operations only, `2^n`
//! by `ldexp` in C and from its bits in Rust, both exact), so exported
//! networks give the interpreter's bits on any machine; tests/export.rs
//! compiles both and compares.

use super::expr::Lang;
use crate::lang::activation::Activation;

const C_EXP: &str = "static double sg_exp(double x){
  double ax,hi,lo,r,t,c,y,kf;int k,n;
  if(x!=x)return x;
  if(x>7.09782712893383973096e+02)return 1e308*10.0;
  if(x<-7.45133219101941108420e+02)return 0.0;
  ax=x<0.0?-x:x;
  if(ax>3.46573590279972654709e-01){
    if(ax<1.03972077083991796413e+00)k=x<0.0?-1:1;
    else k=(int)(1.44269504088896338700e+00*x+(x<0.0?-0.5:0.5));
    kf=(double)k;hi=x-kf*6.93147180369123816490e-01;lo=kf*1.90821492927058770002e-10;
  }else if(ax>3.7252902984619140625e-09){k=0;hi=x;lo=0.0;}
  else return 1.0+x;
  r=hi-lo;t=r*r;
  c=r-t*(1.66666666666666019037e-01+t*(-2.77777777770155933842e-03+t*(6.61375632143793436117e-05
    +t*(-1.65339022054652515390e-06+t*4.13813679705723846039e-08))));
  if(k==0)return 1.0-((r*c)/(c-2.0)-r);
  y=1.0-((lo-(r*c)/(2.0-c))-hi);
  n=k;
  if(n>1023){y*=ldexp(1.0,1023);n-=1023;if(n>1023){y*=ldexp(1.0,1023);n-=1023;if(n>1023)n=1023;}}
  else if(n<-1022){y*=ldexp(1.0,-1022)*ldexp(1.0,53);n+=1022-53;
    if(n<-1022){y*=ldexp(1.0,-1022)*ldexp(1.0,53);n+=1022-53;if(n<-1022)n=-1022;}}
  return y*ldexp(1.0,n);
}
";

const RUST_EXP: &str = "fn sg_exp(x: f64) -> f64 {
    fn pow2(n: i32) -> f64 {
        f64::from_bits(((0x3ff + n) as u64) << 52)
    }
    if x.is_nan() {
        return x;
    }
    if x > 7.09782712893383973096e+02 {
        return f64::INFINITY;
    }
    if x < -7.45133219101941108420e+02 {
        return 0.0;
    }
    let ax = x.abs();
    let (hi, lo, k) = if ax > 3.46573590279972654709e-01 {
        let k = if ax < 1.03972077083991796413e+00 {
            if x < 0.0 { -1 } else { 1 }
        } else {
            (1.44269504088896338700e+00 * x + if x < 0.0 { -0.5 } else { 0.5 }) as i32
        };
        let kf = f64::from(k);
        (x - kf * 6.93147180369123816490e-01, kf * 1.90821492927058770002e-10, k)
    } else if ax > 3.7252902984619140625e-09 {
        (x, 0.0, 0)
    } else {
        return 1.0 + x;
    };
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03 + t * (6.61375632143793436117e-05
        + t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
    if k == 0 {
        return 1.0 - ((r * c) / (c - 2.0) - r);
    }
    let (mut y, mut n) = (1.0 - ((lo - (r * c) / (2.0 - c)) - hi), k);
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
";

/// The name exported code calls for `a`.
pub fn function(a: Activation) -> Option<&'static str> {
    match a {
        Activation::Sigmoid => Some("sg_sigmoid"),
        Activation::Tanh => Some("sg_tanh"),
        Activation::Relu => Some("sg_relu"),
        Activation::Linear => None,
    }
}

/// The definitions of the helpers `used` needs, in `lang`.
pub fn definitions(lang: Lang, used: &[Activation]) -> String {
    let c = lang == Lang::C;
    let mut s = String::new();
    let has = |a: Activation| used.contains(&a);
    if has(Activation::Sigmoid) || has(Activation::Tanh) {
        s.push_str(if c { C_EXP } else { RUST_EXP });
    }
    if has(Activation::Sigmoid) {
        s.push_str(if c {
            "static double sg_sigmoid(double x){return 1.0/(1.0+sg_exp(-4.9*x));}\n"
        } else {
            "fn sg_sigmoid(x: f64) -> f64 {\n    1.0 / (1.0 + sg_exp(-4.9 * x))\n}\n"
        });
    }
    if has(Activation::Tanh) {
        s.push_str(if c {
            "static double sg_tanh(double x){return 2.0/(1.0+sg_exp(-2.0*x))-1.0;}\n"
        } else {
            "fn sg_tanh(x: f64) -> f64 {\n    2.0 / (1.0 + sg_exp(-2.0 * x)) - 1.0\n}\n"
        });
    }
    if has(Activation::Relu) {
        s.push_str(if c {
            "static double sg_relu(double x){return x>0.0?x:0.0;}\n"
        } else {
            "fn sg_relu(x: f64) -> f64 {\n    if x > 0.0 { x } else { 0.0 }\n}\n"
        });
    }
    s
}
