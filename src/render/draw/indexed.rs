//! PNG encoding with a palette. The pictures are flat colours plus the anti-aliased rims of
//! pieces and letters, so a palette of 256 colours holds them exactly or nearly: a picture
//! with at most 256 colours is stored exactly; otherwise the 256 most used colours are kept
//! and each rarer one (a rim pixel) takes one near it (the nearest to the first rare colour
//! of its cell of a 32x32x32 grid). A byte per pixel instead of
//! three makes the file smaller and the compression quicker.

use image::RgbImage;
use std::collections::HashMap;

const SLOTS: usize = 4096;

/// The picture's colours, in order of first use, how many pixels use each, and its rows as
/// runs of one colour (colour number, length), all in one vector: a distinct row's runs are
/// `runs[starts[d]..starts[d + 1]]`, and `rows[y]` is row y's distinct row d.
struct Counted {
    colours: Vec<[u8; 3]>,
    uses: Vec<u32>,
    runs: Vec<(u16, u32)>,
    starts: Vec<usize>,
    rows: Vec<usize>,
}

impl Counted {
    /// The runs of row `y`.
    fn row(&self, y: usize) -> &[(u16, u32)] {
        let d = self.rows[y];
        &self.runs[self.starts[d]..self.starts[d + 1]]
    }
}

/// Numbers the colours of `img`. A row like the one above is reused; within a row, a run of
/// one colour is found eight bytes at a time, and most runs' colours were seen lately, so the
/// hash map is consulted rarely. Gives up (None) past `u16::MAX` colours.
fn count(img: &RgbImage) -> Option<Counted> {
    let width = img.width() as usize;
    let mut colours: Vec<[u8; 3]> = Vec::new();
    let mut uses: Vec<u32> = Vec::new();
    let mut known: HashMap<u32, u16> = HashMap::new();
    // Colours packed in the low 24 bits; an empty slot holds a value no colour packs to.
    let mut recent = vec![(u32::MAX, 0u16); SLOTS];
    // A board's rows hold a few dozen runs each; small pictures reserve little.
    let mut runs: Vec<(u16, u32)> = Vec::with_capacity(img.height() as usize * 32);
    let mut starts: Vec<usize> = vec![0];
    let mut rows: Vec<usize> = Vec::with_capacity(img.height() as usize);
    let mut above: &[u8] = &[];
    for row in img.as_raw().chunks_exact(width * 3) {
        if row != above || rows.is_empty() {
            let mut px = 0;
            while px < width {
                let p = &row[px * 3..px * 3 + 3];
                let c = u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]);
                let s = (c ^ (c >> 11) ^ (c >> 17)) as usize % SLOTS;
                let id = if recent[s].0 == c {
                    recent[s].1
                } else {
                    let id = match known.get(&c) {
                        Some(&id) => id,
                        None => {
                            let id = u16::try_from(colours.len())
                                .ok()
                                .filter(|&i| i < u16::MAX)?;
                            colours.push([p[0], p[1], p[2]]);
                            uses.push(0);
                            known.insert(c, id);
                            id
                        }
                    };
                    recent[s] = (c, id);
                    id
                };
                let end = run_end(row, px * 3 + 3) / 3;
                runs.push((id, (end - px) as u32));
                px = end;
            }
            starts.push(runs.len());
            above = row;
        }
        let d = starts.len() - 2;
        for &(id, n) in &runs[starts[d]..starts[d + 1]] {
            uses[usize::from(id)] += n;
        }
        rows.push(d);
    }
    Some(Counted {
        colours,
        uses,
        runs,
        starts,
        rows,
    })
}

/// The first byte from `k` on (k >= 3) that differs from the byte a pixel before it, or the
/// row's end: the pixel holding it is the first after `k`'s run of one colour.
fn run_end(row: &[u8], mut k: usize) -> usize {
    while k + 8 <= row.len() {
        let a = u64::from_le_bytes(row[k..k + 8].try_into().expect("8 bytes"));
        let b = u64::from_le_bytes(row[k - 3..k + 5].try_into().expect("8 bytes"));
        if a != b {
            return k + ((a ^ b).trailing_zeros() / 8) as usize;
        }
        k += 8;
    }
    while k < row.len() && row[k] == row[k - 3] {
        k += 1;
    }
    k
}

/// The palette (at most 256 colours) and, for each counted colour, its palette index.
fn palette(counted: &Counted) -> (Vec<[u8; 3]>, Vec<u8>) {
    let n = counted.colours.len();
    if n <= 256 {
        return (counted.colours.clone(), (0..n).map(|i| i as u8).collect());
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| counted.uses[b].cmp(&counted.uses[a]).then(a.cmp(&b)));
    let kept: Vec<[u8; 3]> = order[..256].iter().map(|&i| counted.colours[i]).collect();
    // Rare colours are rim pixels, blends along a few lines between flat colours: they fall
    // in few cells of a coarse colour grid, so the nearest kept colour is sought once a cell.
    let mut cells = vec![u16::MAX; 1 << 15];
    let cell = |c: [u8; 3]| {
        (usize::from(c[0] >> 3) << 10) | (usize::from(c[1] >> 3) << 5) | usize::from(c[2] >> 3)
    };
    let mut index = vec![0u8; n];
    for (rank, &i) in order.iter().enumerate() {
        index[i] = if rank < 256 {
            rank as u8
        } else {
            let c = counted.colours[i];
            let slot = &mut cells[cell(c)];
            if *slot == u16::MAX {
                *slot = u16::from(nearest(&kept, c));
            }
            *slot as u8
        };
    }
    (kept, index)
}

fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let distance = |p: &[u8; 3]| -> u32 {
        (0..3)
            .map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2) as u32)
            .sum()
    };
    let (i, _) = palette
        .iter()
        .enumerate()
        .min_by_key(|(_, p)| distance(p))
        .expect("a palette has colours");
    i as u8
}

/// Encodes `img` as an indexed PNG, favouring speed.
pub fn encode(img: &RgbImage) -> Vec<u8> {
    let Some(counted) = count(img) else {
        return encode_rgb(img);
    };
    let (colours, index) = palette(&counted);
    let mut pixels: Vec<u8> = Vec::with_capacity((img.width() * img.height()) as usize);
    for y in 0..counted.rows.len() {
        for &(id, n) in counted.row(y) {
            pixels.extend(std::iter::repeat_n(index[usize::from(id)], n as usize));
        }
    }
    write(
        img,
        png::ColorType::Indexed,
        Some(colours.concat()),
        &pixels,
    )
}

/// Encodes `img` as a plain RGB PNG (a picture of more colours than a palette can number).
fn encode_rgb(img: &RgbImage) -> Vec<u8> {
    write(img, png::ColorType::Rgb, None, img.as_raw())
}

/// A PNG of `img`'s size holding `data` (8 bits a sample, filtered by rows above, which suits
/// both flat indices and flat colours), compressed for speed.
fn write(img: &RgbImage, color: png::ColorType, palette: Option<Vec<u8>>, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * 1024);
    let mut encoder = png::Encoder::new(&mut out, img.width(), img.height());
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    if let Some(palette) = palette {
        encoder.set_palette(palette);
    }
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder
        .write_header()
        .expect("encoding to memory cannot fail");
    writer
        .write_image_data(data)
        .expect("encoding to memory cannot fail");
    writer.finish().expect("encoding to memory cannot fail");
    out
}

/// Encodes as PNG with a palette, favouring speed (see [`encode`]).
pub fn encode_png(img: &RgbImage) -> Vec<u8> {
    encode(img)
}
