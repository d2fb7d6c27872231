/// Short, stable file names for notification names and processes, so socket paths fit `sun_path`.
enum SocketPaths {
    /// A file-name-safe key for `name`: up to 16 readable characters, then a 64-bit FNV-1a hash.
    ///
    /// `com.example.notes.didSave` becomes `com.example.notes-8d2f...`; two names never
    /// share a key unless their hashes collide.
    static func key(for name: String) -> String {
        let readable = name.unicodeScalars.prefix(16).map { scalar -> Character in
            let allowed = (scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil))
                || scalar == "." || scalar == "-" || scalar == "_"
            return allowed ? Character(scalar) : "_"
        }
        return String(readable) + "-" + hexHash(name)
    }

    /// FNV-1a over the UTF-8 bytes, as 16 hex digits.
    static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
