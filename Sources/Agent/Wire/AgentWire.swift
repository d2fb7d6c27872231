import Basics

/// How the runner and an agent exchange configs, requests and replies: one line of JSON each, written
/// by `WireEncoder` and read by `WireDecoder` (both ends, and a config file, use these two only).
public enum AgentWire {
    /// The message as one line of JSON (no trailing newline).
    public static func line<Message: Encodable>(_ message: Message) throws -> String {
        try WireEncoder().encodeLine(message)
    }

    /// The message as JSON bytes, for a file.
    public static func bytes<Message: Encodable>(_ message: Message) throws -> [UInt8] {
        try WireEncoder().encode(message)
    }

    /// The message a line (or a file's bytes) holds.
    public static func decode<Message: Decodable>(_ type: Message.Type, from line: String) throws -> Message {
        try WireDecoder().decode(type, from: line)
    }

    /// The message a file's bytes hold.
    public static func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws -> Message {
        try WireDecoder().decode(type, from: bytes)
    }
}
