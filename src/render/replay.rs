//! Animated replays: a match's spectator pictures, one frame per action, as a looping GIF that
//! Discord plays inline. Frames share one palette: the colours the first and last pictures use
//! most (board squares, highlights, text) exactly, and a colour cube for the rest. Each frame
//! after the first stores only the rectangles that changed (the status line, the squares a
//! move touched), their unchanged pixels transparent, so a move costs a few squares, not a
//! board.

use image::RgbImage;
use std::collections::HashMap;
use std::sync::Arc;

/// How long each frame shows, in hundredths of a second; the final one stays longer.
pub const FRAME_DELAY: u16 = 80;
pub const LAST_DELAY: u16 = 400;
/// A frame that only completes the picture another frame began shows this long (browsers
/// slow delays under 2 to a tenth of a second).
pub(super) const STEP_DELAY: u16 = 2;
/// Changed rows at most this far apart go in one frame.
const BAND_GAP: u32 = 24;

/// Colours taken exactly from the pictures; the rest of the palette is a 6x6x6 cube, and the
/// last index is transparency.
const EXACT: usize = 39;
const TRANSPARENT: u8 = 255;
/// Slots of the palette's cache of recent look-ups.
const RECENT: usize = 4096;

/// Encodes `frames` (each drawn by `draw` once) as an animated GIF. The canvas takes the larger
/// of the first and last pictures (a board only grows as a game goes on); should a picture in
/// between be larger still, the encoding starts again on a canvas that holds it. Smaller
/// pictures sit at the top, centred across, on the background colour of the first: an En Prise
/// board grows around its middle rather than away from the left edge.
pub fn animate<T: Sync>(frames: &[T], draw: impl Fn(&T) -> RgbImage + Sync) -> Vec<u8> {
    let (Some(first), Some(last)) = (frames.first(), frames.last()) else {
        return Vec::new();
    };
    let (first, last) = (draw(first), draw(last));
    let mut palette = Palette::new(&first, &last);
    let mut canvas = (
        first.width().max(last.width()),
        first.height().max(last.height()),
    );
    loop {
        match encode(frames, &draw, (&first, &last), canvas, &mut palette) {
            Ok(gif) => return gif,
            Err(larger) => canvas = (canvas.0.max(larger.0), canvas.1.max(larger.1)),
        }
    }
}

/// The GIF of `frames` on a canvas of `width` x `height`, or the size of the first picture that
/// does not fit. The pictures in between are drawn on a second thread while this one encodes.
fn encode<T: Sync>(
    frames: &[T],
    draw: &(impl Fn(&T) -> RgbImage + Sync),
    (first, last): (&RgbImage, &RgbImage),
    (width, height): (u32, u32),
    palette: &mut Palette,
) -> Result<Vec<u8>, (u32, u32)> {
    let background = *first.get_pixel(0, 0);
    let fit = |picture: RgbImage| -> Result<RgbImage, (u32, u32)> {
        match picture.dimensions() {
            (w, h) if w > width || h > height => Err((w, h)),
            (w, h) if (w, h) == (width, height) => Ok(picture),
            (w, _) => {
                let mut canvas = RgbImage::from_pixel(width, height, background);
                let left = i64::from((width - w) / 2);
                image::imageops::replace(&mut canvas, &picture, left, 0);
                Ok(canvas)
            }
        }
    };
    let mut out = Vec::new();
    let mut encoder = gif::Encoder::new(&mut out, width as u16, height as u16, &palette.rgb())
        .expect("a GIF header fits in memory");
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .expect("writing to memory cannot fail");
    let count = frames.len();
    std::thread::scope(|scope| {
        // A second thread draws each picture and finds what changed; this one encodes.
        let (send, received) = std::sync::mpsc::sync_channel(8);
        scope.spawn(move || {
            let mut shown: Option<Arc<RgbImage>> = None;
            for (i, frame) in frames.iter().enumerate() {
                // The first and last pictures were drawn for the palette already.
                let picture = match i {
                    0 => first.clone(),
                    i if i + 1 == count => last.clone(),
                    _ => draw(frame),
                };
                let step = fit(picture).map(|next| {
                    let next = Arc::new(next);
                    let areas = match &shown {
                        None => vec![(0, 0, width, height)],
                        Some(shown) => changed(shown, &next),
                    };
                    shown = Some(Arc::clone(&next));
                    (next, areas)
                });
                let stop = step.is_err();
                // The encoder stops listening when a picture does not fit.
                if send.send(step).is_err() || stop {
                    break;
                }
            }
        });
        write_frames(&mut encoder, received.iter(), count, palette)
    })?;
    drop(encoder);
    Ok(out)
}

/// A picture and the rectangles where it differs from the one before.
type Step = Result<(Arc<RgbImage>, Vec<(u32, u32, u32, u32)>), (u32, u32)>;

/// Writes each picture as the frames of what changed since the one before.
fn write_frames(
    encoder: &mut gif::Encoder<&mut Vec<u8>>,
    steps: impl Iterator<Item = Step>,
    count: usize,
    palette: &mut Palette,
) -> Result<(), (u32, u32)> {
    let mut shown: Option<Arc<RgbImage>> = None;
    for (i, step) in steps.enumerate() {
        let (next, areas) = step?;
        // An action that changes nothing visible still takes its turn on screen.
        let areas = if areas.is_empty() {
            vec![(0, 0, 1, 1)]
        } else {
            areas
        };
        let delay = if i + 1 == count {
            LAST_DELAY
        } else {
            FRAME_DELAY
        };
        for (k, &area) in areas.iter().enumerate() {
            // Each area is a frame of its own; all but the last show for a moment only.
            let delay = if k + 1 == areas.len() {
                delay - STEP_DELAY * (areas.len() as u16 - 1).min(delay / STEP_DELAY / 2)
            } else {
                STEP_DELAY
            };
            let frame = sub_frame(&next, shown.as_deref(), area, palette, delay);
            encoder
                .write_frame(&frame)
                .expect("writing to memory cannot fail");
        }
        shown = Some(next);
    }
    Ok(())
}

/// The part `area` (x, y, width, height) of `next` as a GIF frame: pixels equal to what is
/// `shown` already are transparent.
fn sub_frame(
    next: &RgbImage,
    shown: Option<&RgbImage>,
    (x, y, w, h): (u32, u32, u32, u32),
    palette: &mut Palette,
    delay: u16,
) -> gif::Frame<'static> {
    let mut indices = Vec::with_capacity((w * h) as usize);
    let row_bytes = next.width() as usize * 3;
    for row in y..y + h {
        let start = row as usize * row_bytes + x as usize * 3;
        let span = start..start + w as usize * 3;
        let new = next.as_raw()[span.clone()].chunks_exact(3);
        match shown {
            None => indices.extend(new.map(|p| palette.index([p[0], p[1], p[2]]))),
            Some(shown) => {
                let old = shown.as_raw()[span].chunks_exact(3);
                indices.extend(new.zip(old).map(|(p, q)| match p == q {
                    true => TRANSPARENT,
                    false => palette.index([p[0], p[1], p[2]]),
                }));
            }
        }
    }
    let mut frame = gif::Frame {
        left: x as u16,
        top: y as u16,
        width: w as u16,
        height: h as u16,
        buffer: indices.into(),
        delay,
        transparent: shown.is_some().then_some(TRANSPARENT),
        ..gif::Frame::default()
    };
    frame.dispose = gif::DisposalMethod::Keep;
    frame
}

/// The rectangles (x, y, width, height) holding every pixel that differs: changed rows at most
/// `BAND_GAP` apart form a band, and within a band, changed columns at most `BAND_GAP` apart
/// form a rectangle, as tall as its own changes. A move changes the status
/// line and a few squares; one rectangle around them all would be most of the board.
pub(super) fn changed(a: &RgbImage, b: &RgbImage) -> Vec<(u32, u32, u32, u32)> {
    let width = a.width() as usize;
    let rows = a
        .as_raw()
        .chunks_exact(width * 3)
        .zip(b.as_raw().chunks_exact(width * 3));
    // Bands of changed rows: first and last row (inclusive).
    let mut bands: Vec<(usize, usize)> = Vec::new();
    for (y, (ra, rb)) in rows.enumerate() {
        if ra == rb {
            continue;
        }
        match bands.last_mut() {
            Some(band) if y - band.1 <= BAND_GAP as usize => band.1 = y,
            _ => bands.push((y, y)),
        }
    }
    let mut out = Vec::new();
    // For each column of a band: the first and last row where it changed.
    let mut columns = vec![(usize::MAX, 0usize); width];
    for (top, bottom) in bands {
        columns.fill((usize::MAX, 0));
        for y in top..=bottom {
            let start = y * width * 3;
            let (ra, rb) = (
                &a.as_raw()[start..start + width * 3],
                &b.as_raw()[start..start + width * 3],
            );
            let (first, last) = (first_difference(ra, rb), last_difference(ra, rb));
            let (Some(first), Some(last)) = (first, last) else {
                continue;
            };
            for x in first / 3..=last / 3 {
                if ra[x * 3..x * 3 + 3] != rb[x * 3..x * 3 + 3] {
                    let c = &mut columns[x];
                    *c = (c.0.min(y), c.1.max(y));
                }
            }
        }
        // Runs of changed columns, gaps under BAND_GAP bridged.
        let mut run: Option<(usize, usize, usize, usize)> = None;
        for (x, &(y0, y1)) in columns.iter().enumerate() {
            if y0 == usize::MAX {
                continue;
            }
            run = match run {
                Some((left, right, t, b)) if x - right <= BAND_GAP as usize => {
                    Some((left, x, t.min(y0), b.max(y1)))
                }
                other => {
                    out.extend(other);
                    Some((x, x, y0, y1))
                }
            };
        }
        out.extend(run);
    }
    out.into_iter()
        .map(|(left, right, top, bottom)| {
            (
                left as u32,
                top as u32,
                (right - left + 1) as u32,
                (bottom - top + 1) as u32,
            )
        })
        .collect()
}

/// The first byte where `a` and `b` differ, compared eight bytes at a time.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let chunks = a.chunks_exact(8).zip(b.chunks_exact(8));
    for (i, (ca, cb)) in chunks.enumerate() {
        let x = u64::from_le_bytes(ca.try_into().expect("8 bytes"))
            ^ u64::from_le_bytes(cb.try_into().expect("8 bytes"));
        if x != 0 {
            return Some(i * 8 + (x.trailing_zeros() / 8) as usize);
        }
    }
    let tail = a.len() - a.len() % 8;
    (tail..a.len()).find(|&i| a[i] != b[i])
}

/// The last byte where `a` and `b` differ.
fn last_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let tail = a.len() - a.len() % 8;
    if let Some(i) = (tail..a.len()).rev().find(|&i| a[i] != b[i]) {
        return Some(i);
    }
    let chunks = a[..tail].chunks_exact(8).zip(b[..tail].chunks_exact(8));
    for (i, (ca, cb)) in chunks.enumerate().rev() {
        let x = u64::from_le_bytes(ca.try_into().expect("8 bytes"))
            ^ u64::from_le_bytes(cb.try_into().expect("8 bytes"));
        if x != 0 {
            return Some(i * 8 + 7 - (x.leading_zeros() / 8) as usize);
        }
    }
    None
}

/// The replay's colours: the most used ones exactly, a cube for the rest, each picture colour
/// mapped once to its nearest entry.
struct Palette {
    colours: Vec<[u8; 3]>,
    nearest: HashMap<[u8; 3], u8>,
    /// The last colours looked up, by a hash of the colour: most pixels hit here.
    recent: Vec<([u8; 3], u8)>,
}

impl Palette {
    fn new(first: &RgbImage, last: &RgbImage) -> Palette {
        let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
        for picture in [first, last] {
            for p in picture.pixels() {
                *counts.entry(p.0).or_default() += 1;
            }
        }
        let mut common: Vec<([u8; 3], u32)> = counts.into_iter().collect();
        common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut colours: Vec<[u8; 3]> = common.iter().take(EXACT).map(|c| c.0).collect();
        let step = |i: u8| i * 51;
        for r in 0..6 {
            for g in 0..6 {
                for b in 0..6 {
                    colours.push([step(r), step(g), step(b)]);
                }
            }
        }
        colours.truncate(TRANSPARENT as usize);
        let nearest = colours
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u8))
            .collect();
        Palette {
            colours,
            nearest,
            recent: vec![([0, 0, 0], TRANSPARENT); RECENT],
        }
    }

    /// The palette as the GIF header holds it, with the transparent entry last.
    fn rgb(&self) -> Vec<u8> {
        let mut rgb: Vec<u8> = self.colours.iter().flatten().copied().collect();
        rgb.resize(256 * 3, 0);
        rgb
    }

    fn index(&mut self, colour: [u8; 3]) -> u8 {
        let slot =
            (usize::from(colour[0]) * 31 + usize::from(colour[1]) * 7 + usize::from(colour[2]))
                % RECENT;
        let (seen, i) = self.recent[slot];
        if seen == colour && i != TRANSPARENT {
            return i;
        }
        let i = self.index_slow(colour);
        self.recent[slot] = (colour, i);
        i
    }

    fn index_slow(&mut self, colour: [u8; 3]) -> u8 {
        if let Some(&i) = self.nearest.get(&colour) {
            return i;
        }
        let distance = |c: &[u8; 3]| -> u32 {
            (0..3)
                .map(|k| (i32::from(c[k]) - i32::from(colour[k])).pow(2) as u32)
                .sum()
        };
        let (i, _) = self
            .colours
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| distance(c))
            .expect("the palette has colours");
        self.nearest.insert(colour, i as u8);
        i as u8
    }
}
