/// The datagrams notification centers and the hub exchange.
///
/// Text fields separated by newlines, so a datagram reads well in `strace`:
/// `P\napp\n123456789\ncom.example.didSave`. Names may not contain a newline.
enum WireMessage: Equatable, Sendable {
    /// `process` posted `name` at `postedAt` (monotonic nanoseconds).
    case post(process: String, name: String, postedAt: UInt64)
    /// `process` starts observing `name`.
    case observe(process: String, name: String)
    /// `process` stops observing `name`.
    case unobserve(process: String, name: String)
    /// A delivery of `name`, posted by `poster` at `postedAt`.
    case deliver(name: String, poster: String, postedAt: UInt64)

    /// The datagram's bytes.
    var encoded: [UInt8] {
        let fields: [String]
        switch self {
        case let .post(process, name, postedAt): fields = ["P", process, String(postedAt), name]
        case let .observe(process, name): fields = ["O", process, name]
        case let .unobserve(process, name): fields = ["U", process, name]
        case let .deliver(name, poster, postedAt): fields = ["D", poster, String(postedAt), name]
        }
        return Array(fields.joined(separator: "\n").utf8)
    }

    /// Decodes a datagram; nil for anything malformed (which receivers ignore).
    init?(decoding bytes: [UInt8]) {
        let fields = String(decoding: bytes, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let kind = fields.first else { return nil }
        switch (kind, fields.count) {
        case ("P", 4):
            guard let postedAt = UInt64(fields[2]) else { return nil }
            self = .post(process: fields[1], name: fields[3], postedAt: postedAt)
        case ("O", 3):
            self = .observe(process: fields[1], name: fields[2])
        case ("U", 3):
            self = .unobserve(process: fields[1], name: fields[2])
        case ("D", 4):
            guard let postedAt = UInt64(fields[2]) else { return nil }
            self = .deliver(name: fields[3], poster: fields[1], postedAt: postedAt)
        default:
            return nil
        }
    }

    /// Throws unless `name` can travel in a datagram field.
    static func validate(_ name: String) throws(NotifyError) {
        guard !name.isEmpty, !name.contains("\n"), name.utf8.count < 1024 else {
            throw .invalidName(name)
        }
    }
}
