// The sync/async overload trap in top-level code, for `TopLevelTrapTests` to run: here Swift
// picks the synchronous `build()` even after `await`, so the message Graft prints must say so
// and say what to write instead. Not a product; the test target depends on it so it is built.
import Graft

final class Pool: Sendable {
    init() async {
        await Task.yield()
    }
}

var builder = ContainerBuilder()
builder.register(Pool.self, lifetime: .eagerSingleton) { _ async in await Pool() }
do {
    // `Task.yield()` gives the `await` an async operation (else the compiler warns that none
    // occurs, which a warnings-as-errors build rejects); `build()` is still the synchronous one.
    let container = try await (builder.build(), Task.yield()).0
    print("built \(container)")
} catch {
    print(error)
}
