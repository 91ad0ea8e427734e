//! Generates the attack tables of the rules core at build time: magic bitboards for the sliders
//! (the magic factors are found here by a seeded search, so the build is reproducible), the leaper
//! tables, and the between/line tables. The output is plain `static` arrays, so the hot path has no
//! lazy initialisation.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn bit(f: i32, r: i32) -> u64 {
    1u64 << (r * 8 + f)
}

fn sliding(sq: i32, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f, r) {
            out |= bit(f, r);
            if occ & bit(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// The relevant occupancy mask: the rays without their last square.
fn relevant(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f + df, r + dr) {
            out |= bit(f, r);
            f += df;
            r += dr;
        }
    }
    out
}

fn leaper(sq: i32, deltas: &[(i32, i32)]) -> u64 {
    deltas
        .iter()
        .filter(|&&(df, dr)| on_board(sq % 8 + df, sq / 8 + dr))
        .fold(0, |acc, &(df, dr)| acc | bit(sq % 8 + df, sq / 8 + dr))
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic factor for one square; returns (mask, factor, shift, table).
fn find_magic(sq: i32, dirs: &[(i32, i32)], rng: &mut Rng) -> (u64, u64, u32, Vec<u64>) {
    let mask = relevant(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    // Enumerate all subsets of the mask (Carry-Rippler).
    let mut subsets = Vec::new();
    let mut sub = 0u64;
    loop {
        subsets.push((sub, sliding(sq, sub, dirs)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let size = 1usize << bits;
    let mut table = vec![0u64; size];
    let mut used = vec![0u32; size];
    let mut epoch = 0u32;
    loop {
        let factor = rng.sparse();
        if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
            continue;
        }
        epoch += 1;
        let ok = subsets.iter().all(|&(occ, att)| {
            let idx = (occ.wrapping_mul(factor) >> shift) as usize;
            if used[idx] != epoch {
                used[idx] = epoch;
                table[idx] = att;
                true
            } else {
                table[idx] == att
            }
        });
        if ok {
            return (mask, factor, shift, table);
        }
    }
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let mut out = String::new();
    let mut rng = Rng(0x5EED_5E1D_CAFE_F00D);
    let mut slider_table: Vec<u64> = Vec::new();
    for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
        writeln!(out, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for sq in 0..64 {
            let (mask, factor, shift, table) = find_magic(sq, dirs, &mut rng);
            writeln!(
                out,
                "    Magic {{ mask: {mask:#x}, factor: {factor:#x}, shift: {shift}, offset: {} }},",
                slider_table.len()
            )
            .unwrap();
            slider_table.extend(table);
        }
        writeln!(out, "];").unwrap();
    }
    write_table(&mut out, "SLIDER_ATTACKS", &slider_table);

    let knight = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let king = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    let t: Vec<u64> = (0..64).map(|s| leaper(s, &knight)).collect();
    write_table(&mut out, "KNIGHT_ATTACKS", &t);
    let t: Vec<u64> = (0..64).map(|s| leaper(s, &king)).collect();
    write_table(&mut out, "KING_ATTACKS", &t);
    let t: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    write_table(&mut out, "WHITE_PAWN_ATTACKS", &t);
    let t: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])).collect();
    write_table(&mut out, "BLACK_PAWN_ATTACKS", &t);

    // BETWEEN[a][b]: squares strictly between a and b on a shared line (else 0).
    // LINE[a][b]: the whole line through a and b, edge to edge (else 0).
    let all_dirs: Vec<(i32, i32)> = ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()).copied().collect();
    let mut between = Vec::with_capacity(4096);
    let mut line = Vec::with_capacity(4096);
    for a in 0..64 {
        for b in 0..64 {
            let (mut bt, mut ln) = (0u64, 0u64);
            if a != b {
                for &(df, dr) in &all_dirs {
                    let ray = sliding(a, 0, &[(df, dr)]);
                    if ray & (1u64 << b) != 0 {
                        bt = sliding(a, 1u64 << b, &[(df, dr)]) & !(1u64 << b);
                        ln = ray | sliding(a, 0, &[(-df, -dr)]) | (1u64 << a);
                    }
                }
            }
            between.push(bt);
            line.push(ln);
        }
    }
    write_table(&mut out, "BETWEEN", &between);
    write_table(&mut out, "LINE", &line);

    let path = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("tables.rs");
    std::fs::write(path, out).unwrap();
}

fn write_table(out: &mut String, name: &str, values: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();
}
