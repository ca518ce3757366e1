//! The figures of covering coevolution as SVG: a line per role (teacher-set
//! size by generation, score by teacher rank), optionally with a 95%
//! interval drawn as two lighter lines and dots on the points.

/// One role's line.
pub struct RoleLine {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// The interval's bounds (x, low, high) where there is one.
    pub band: Vec<(f64, f64, f64)>,
}

/// What the chart shows.
pub struct Axes<'a> {
    pub caption: String,
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    /// Dots on the points (few points), or lines alone (many).
    pub dots: bool,
    /// A faint horizontal line at this value (50%: even with the baseline).
    pub reference: Option<f64>,
}

/// A role named after a colour (red, black, teal...) is drawn in it; the
/// others take the palette's colours in turn.
fn role_colour(name: &str, index: usize) -> plotters::style::RGBColor {
    use plotters::style::{BLACK, BLUE, CYAN, GREEN, MAGENTA, RED, RGBColor};
    match name.to_ascii_lowercase().as_str() {
        "red" => RED,
        "black" => BLACK,
        "blue" => BLUE,
        "green" => GREEN,
        "teal" => RGBColor(0, 128, 128),
        "white" => RGBColor(150, 150, 150),
        "yellow" => RGBColor(200, 160, 0),
        _ => [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK][index % 6],
    }
}

pub fn role_lines(axes: &Axes, lines: &[RoleLine]) -> Result<String, String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&axes.caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(axes.x.0..axes.x.1, axes.y.0..axes.y.1)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc(axes.x_desc)
            .y_desc(axes.y_desc)
            .draw()
            .map_err(|e| e.to_string())?;
        for (r, line) in lines.iter().enumerate() {
            let colour = role_colour(&line.name, r);
            chart
                .draw_series(LineSeries::new(line.points.iter().copied(), &colour))
                .map_err(|e| e.to_string())?
                .label(line.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            if axes.dots {
                chart
                    .draw_series(line.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                    .map_err(|e| e.to_string())?;
            }
            if axes.dots {
                // Discrete points: the interval as a bar at each.
                for &(x, lo, hi) in &line.band {
                    chart
                        .draw_series(LineSeries::new(
                            vec![(x, lo.max(axes.y.0)), (x, hi.min(axes.y.1))],
                            colour.mix(0.5),
                        ))
                        .map_err(|e| e.to_string())?;
                }
            } else {
                for bound in [|b: &(f64, f64, f64)| (b.0, b.1), |b: &(f64, f64, f64)| (b.0, b.2)] {
                    chart
                        .draw_series(LineSeries::new(line.band.iter().map(bound), colour.mix(0.35)))
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        if let Some(y) = axes.reference {
            chart
                .draw_series(LineSeries::new(vec![(axes.x.0, y), (axes.x.1, y)], BLACK.mix(0.3)))
                .map_err(|e| e.to_string())?;
        }
        chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
