import Dispatch
import Foundation
import Graft
import Testing

/// Blocks the current thread briefly, to widen races in concurrency tests.
func pause(microseconds: UInt32 = 2_000) {
    usleep(microseconds)
}

/// Runs `body(index)` on `count` threads of its own, all at once, and waits for them.
///
/// The wait suspends instead of blocking: a blocked thread of Swift's cooperative pool (two
/// threads on a two-core machine) would stall every other test that runs meanwhile.
func runOnDedicatedThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { continuation in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.start()
        }
        group.notify(queue: .global()) { continuation.resume() }
    }
}

/// Resolves synchronously from async code, where Swift would otherwise pick the async overload.
func syncResolve<Service: Sendable>(_ type: Service.Type, from resolver: some Resolver) throws -> Service {
    try resolver.resolve(type, name: nil)
}

extension Array where Element: AnyObject {
    /// How many distinct objects the array holds.
    var distinctCount: Int { Set(map(ObjectIdentifier.init)).count }
}

extension GraftError {
    /// An error equal to any `GraftError` with `code` (errors compare by code), for `#expect(throws:)`.
    static func withCode(_ code: Code) -> GraftError {
        GraftError(code, "any error with code \(code)")
    }
}

/// Expects the errors of two resolves that entered the cycle `first` → `second` → `first` from
/// its two ends at once: two cycle errors, each naming the cycle from where it entered it, and
/// each saying how the cycle came about.
func expectCycleEnteredFromBothEnds(
    _ errors: [GraftError],
    _ first: String,
    _ second: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(errors.count == 2, sourceLocation: sourceLocation)
    let fromEitherEnd = [
        "dependency cycle: \(first) → \(second) → \(first)", "dependency cycle: \(second) → \(first) → \(second)",
    ]
    for error in errors {
        #expect(error.code == .cycle, sourceLocation: sourceLocation)
        #expect(fromEitherEnd.contains(error.summary), sourceLocation: sourceLocation)
        #expect(
            error.hints.contains("two resolves entered this cycle from different ends at the same time"),
            sourceLocation: sourceLocation
        )
    }
}
