/// `piece` at every position of a run of `length` fillers: the texts that put a special
/// character or escape at each offset of the words a coder reads eight bytes at a time.
///
/// - Parameters:
///   - piece: The text to place.
///   - length: The number of fillers around it.
///   - filler: The text of each filler.
/// - Returns: `length + 1` texts, `piece` first, then after one filler, and so on.
func texts(placing piece: String, amongRunOf length: Int, of filler: String = "x") -> [String] {
  (0...length).map { position in
    var pieces = Array(repeating: filler, count: length)
    pieces.insert(piece, at: position)
    return pieces.joined()
  }
}
