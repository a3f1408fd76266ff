import GeneratedServices
import Graft

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// graft-first-creation <mode>: what a registration's first creation costs in a program that
// holds the 30,000 generated service types and their conformances. It registers one service
// as `mode` says, builds, then creates it twice, in `measuredOnce` and `measuredAgain`, the
// two steps Scripts/first-creation.py counts with callgrind (--toggle-collect). A registration
// under a protocol asks its instance whether it is disposable; the Swift runtime answers the
// first such question for a type by scanning every conformance record in the program, and
// caches the answer.

/// What the measured service is used through.
protocol Gauge: Sendable {
    var reading: Int { get }
}

/// An instance with nothing to dispose.
final class PlainGauge: Gauge {
    let reading = 1
}

/// An instance its owner disposes.
final class ClosableGauge: Gauge, Disposable {
    let reading = 2

    func dispose() {}
}

/// How the one service is registered.
enum Mode: String, CaseIterable {
    /// `register(PlainGauge.self)`: decided while registering, not disposable.
    case concrete
    /// `register(ClosableGauge.self)`: decided while registering, disposable.
    case concreteDisposable
    /// `register((any Gauge).self)` making a `PlainGauge`: asked, and not disposable.
    case `protocol`
    /// `register((any Gauge).self)` making a `ClosableGauge`: asked, and disposable.
    case protocolDisposable

    func register(in builder: inout ContainerBuilder) {
        switch self {
        case .concrete: builder.register(PlainGauge.self) { _ in PlainGauge() }
        case .concreteDisposable: builder.register(ClosableGauge.self) { _ in ClosableGauge() }
        case .protocol: builder.register((any Gauge).self) { _ in PlainGauge() }
        case .protocolDisposable: builder.register((any Gauge).self) { _ in ClosableGauge() }
        }
    }

    /// Creates the service once (each registration is a transient).
    func create(from container: Container) throws -> Int {
        switch self {
        case .concrete: try container.resolve(PlainGauge.self).reading
        case .concreteDisposable: try container.resolve(ClosableGauge.self).reading
        case .protocol, .protocolDisposable: try container.resolve((any Gauge).self).reading
        }
    }
}

// Each adds a number of its own after the creation: no tail call (callgrind stops counting when
// the toggled function is left, which a tail call does at once), and two bodies that differ,
// which the optimizer does not merge into one function.
func microseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
}

@inline(never)
func measuredOnce(_ mode: Mode, _ container: Container) throws -> Int {
    try mode.create(from: container) &+ 1
}

@inline(never)
func measuredAgain(_ mode: Mode, _ container: Container) throws -> Int {
    try mode.create(from: container) &+ 2
}

guard CommandLine.arguments.count == 2, let mode = Mode(rawValue: CommandLine.arguments[1]) else {
    print("usage: graft-first-creation <\(Mode.allCases.map(\.rawValue).joined(separator: "|"))>")
    exit(2)
}
var builder = ContainerBuilder()
mode.register(in: &builder)
let container = try builder.build()
let clock = ContinuousClock()
let start = clock.now
let first = try measuredOnce(mode, container)
let firstDone = clock.now
let second = try measuredAgain(mode, container)
let secondDone = clock.now
// The generated types are part of the program: their count is printed so the module is linked.
print(
    "\(mode.rawValue) (\(first + second)), in a program with \(generatedServiceTypes.count) generated types: "
        + "first creation \(microseconds(firstDone - start)) µs, second \(microseconds(secondDone - firstDone)) µs"
)
try container.shutdown()
