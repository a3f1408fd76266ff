#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading injection values from JSON.
extension KeyValueInjection {
    /// Reads the values of a JSON object, ready for `inject(_:)`.
    ///
    /// Nested objects become nested dictionaries, which reach nested keys (`{"view":
    /// {"backgroundColor": "white"}}` sets `"view.backgroundColor"`); arrays become arrays;
    /// whole numbers become `Int` and other numbers `Double`, and either converts to the
    /// declared numeric type when it holds the number exactly (`3.0` sets an `Int` to 3, `3.5`
    /// is a type mismatch); `null` becomes `nil`, which only an `Optional` key accepts. Read
    /// the file once and inject the same values into each instance.
    ///
    /// ```swift
    /// let values = try KeyValueInjection.values(fromJSON: #"{"title": "Test", "retries": 3}"#.utf8)
    /// ```
    ///
    /// - Parameter json: UTF-8 JSON text whose top level is an object: `Data` or `String.UTF8View`.
    /// - Returns: The object's values by key.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/typeMismatch`` when the text is
    ///   not valid JSON or its top level is not an object.
    public static func values(fromJSON json: some Collection<UInt8>) throws(GraftError) -> [String: any Sendable] {
        try values(fromJSON: json, for: nil)
    }

    static func values(
        fromJSON json: some Collection<UInt8>,
        for rootType: String?
    ) throws(GraftError) -> [String: any Sendable] {
        let subject = rootType.map { "JSON for \($0)" } ?? "injection JSON"
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(json))
        } catch {
            throw GraftError(
                .typeMismatch,
                "cannot read \(subject): \(readingProblem(error))",
                service: rootType,
                hints: ["check that the text is valid JSON with an object at the top level"]
            )
        }
        guard case .object(let members) = document else {
            throw GraftError(
                .typeMismatch,
                "\(subject) must be an object at the top level, got \(document.kind)",
                service: rootType,
                hints: [#"put the values in an object: {"key": value, …}"#]
            )
        }
        return members.mapValues(\.injectableValue)
    }

    /// The most specific explanation a decoding error carries, as the end of a sentence.
    private static func readingProblem(_ error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else {
            return String(describing: error)
        }
        if let underlying = context.underlyingError {
            return readingProblem(underlying)
        }
        let text = context.debugDescription
        let sentence = text.hasSuffix(".") ? text.dropLast() : Substring(text)
        return sentence.prefix(1).lowercased() + sentence.dropFirst()
    }
}

/// A JSON document, decoded without losing the difference between `true`, `1` and `1.0`.
private enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each kind is tried in turn; a failure other than "not this kind" (a string that is not
        // UTF-8, a number too large for a Double, a problem inside an array) is the real one,
        // and is what the reader sees instead of "expected an object".
        var realFailure: (any Error)?
        func attempt<Value: Decodable>(_ type: Value.Type) -> Value? {
            do {
                return try container.decode(type)
            } catch DecodingError.typeMismatch(_, let context)
                where context.codingPath.count == decoder.codingPath.count
            {
                return nil
            } catch {
                realFailure = realFailure ?? error
                return nil
            }
        }
        if container.decodeNil() {
            self = .null
        } else if let bool = attempt(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = attempt(Double.self) {
            self = .number(number)
        } else if let string = attempt(String.self) {
            self = .string(string)
        } else if let array = attempt([JSONValue].self) {
            self = .array(array)
        } else if let object = attempt([String: JSONValue].self) {
            self = .object(object)
        } else {
            throw realFailure
                ?? DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Unreadable JSON value.")
                )
        }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    var injectableValue: any Sendable {
        switch self {
        case .null: Optional<Never>.none
        case .bool(let bool): bool
        case .integer(let integer): integer
        case .number(let number): number
        case .string(let string): string
        case .array(let array): array.map(\.injectableValue)
        case .object(let members): members.mapValues(\.injectableValue)
        }
    }
}
