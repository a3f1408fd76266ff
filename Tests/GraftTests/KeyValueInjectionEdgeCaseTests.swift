import Foundation
import Graft
import Testing

/// Outside input at its worst: deep nesting, huge numbers, non-finite doubles, duplicate keys
/// and bytes that are not UTF-8. Each is rejected with a `GraftError` whose message a user can
/// act on, or accepted with the exact value; nothing crashes.
@Suite struct KeyValueInjectionEdgeCaseTests {
    struct Inner: KeyValueInjectable, Equatable {
        var depth = 0
        static let injectableKeys: InjectableKeys<Inner> = [.optional("depth", \.depth)]
    }

    struct Gauge: KeyValueInitializable, Equatable {
        var count = 0
        var small: Int8 = 0
        var reading = 0.0
        var ratio: Float = 0
        var tags: [String] = []
        var inner = Inner()

        static let injectableKeys: InjectableKeys<Gauge> = [
            .optional("count", \.count),
            .optional("small", \.small),
            .optional("reading", \.reading),
            .optional("ratio", \.ratio),
            .optional("tags", \.tags),
            .nested("inner", \.inner),
        ]
    }

    private func message(_ json: some Collection<UInt8>) -> String {
        do {
            _ = try Gauge(injectingJSON: json)
            return "accepted"
        } catch {
            return error.description
        }
    }

    private func message(_ values: [String: any Sendable]) -> String {
        do {
            _ = try Gauge(injecting: values)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func arraysNestedDeeperThanTheReaderAllowsAreRejected() {
        let json = #"{"tags": "# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        #expect(
            message(json.utf8) == """
                Graft: cannot read JSON for Gauge: the given data was not valid JSON
                  check that the text is valid JSON with an object at the top level
                """
        )
    }

    @Test func nestedObjectsUnderAnUnknownKeyStopAtTheFirstUnknownName() {
        let json =
            String(repeating: #"{"inner": "#, count: 1) + String(repeating: #"{"deeper": "#, count: 200) + "1"
            + String(repeating: "}", count: 201)
        #expect(
            message(json.utf8) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge has no injectable key "inner.deeper"
                     did you mean "inner.depth"?
                """
        )
    }

    /// Before the fix the fuzz run led to, a string that is not UTF-8 or a number beyond
    /// `Double` was reported as "expected to decode Dictionary … but found an array instead".
    @Test func hugeNumbers() throws {
        #expect(
            message(#"{"count": 123456789012345678901234567890}"#.utf8) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge.count expects Int, got Double that does not convert exactly
                     pass a number that Int holds exactly for "count"
                """
        )
        #expect(
            message(#"{"reading": 1e400}"#.utf8) == """
                Graft: cannot read JSON for Gauge: the given data was not valid JSON
                  check that the text is valid JSON with an object at the top level
                """
        )
        #expect(
            message(#"{"small": 128}"#.utf8) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge.small expects Int8, got Int that does not convert exactly
                     pass a number that Int8 holds exactly for "small"
                """
        )
        #expect(try Gauge(injectingJSON: #"{"count": 9223372036854775807}"#.utf8).count == Int.max)
        #expect(
            try Gauge(injectingJSON: #"{"reading": 1.7976931348623157e308}"#.utf8).reading == .greatestFiniteMagnitude
        )
    }

    @Test func nonFiniteDoubles() throws {
        #expect(
            message(["count": Double.nan]) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge.count expects Int, got Double that does not convert exactly
                     pass a number that Int holds exactly for "count"
                """
        )
        #expect(
            message(["count": Double.infinity]) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge.count expects Int, got Double that does not convert exactly
                     pass a number that Int holds exactly for "count"
                """
        )
        #expect(
            message(["ratio": 1e300]) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge.ratio expects Float, got Double that does not convert exactly
                     pass a number that Float holds exactly for "ratio"
                """
        )
        #expect(try Gauge(injecting: ["ratio": Double.infinity]).ratio == .infinity)
        #expect(try Gauge(injecting: ["reading": Double.nan]).reading.isNaN)
        #expect(
            message(#"{"reading": NaN}"#.utf8) == """
                Graft: cannot read JSON for Gauge: the given data was not valid JSON
                  check that the text is valid JSON with an object at the top level
                """
        )
    }

    @Test func duplicateKeys() throws {
        // JSON objects with a repeated name are read as Foundation's JSONDecoder reads them: the
        // first one wins. A name given both dotted and nested is a problem (it is ambiguous).
        #expect(try Gauge(injectingJSON: #"{"count": 1, "count": 2}"#.utf8).count == 1)
        #expect(
            message(["inner.depth": 1, "inner": ["depth": 2] as [String: any Sendable]]) == """
                Graft: cannot inject Gauge: 1 problem
                  1. Gauge is given key "inner.depth" 2 times
                     pass it once; it is given inside "inner" and as "inner.depth"
                """
        )
    }

    @Test func invalidUTF8() {
        let bytes: [UInt8] = Array(#"{"tags": [""#.utf8) + [0xFF, 0xFE] + Array(#""]}"#.utf8)
        #expect(
            message(bytes) == """
                Graft: cannot read JSON for Gauge: the given data was not valid JSON
                  check that the text is valid JSON with an object at the top level
                """
        )
        #expect(
            message([0xC3]) == """
                Graft: cannot read JSON for Gauge: the given data was not valid JSON
                  check that the text is valid JSON with an object at the top level
                """
        )
    }
}
