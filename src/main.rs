fn main() {
    match watergate::data::load(&watergate::data::DataSet::embedded()) {
        Ok(r) => println!("ok: {} cards", r.cards.len()),
        Err(d) => print!("{d}"),
    }
}
