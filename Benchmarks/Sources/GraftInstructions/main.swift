import RandomGraph

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// graft-instructions <scenario> <library> <iterations>: builds the scenario's container, then
// resolves `iterations` times and exits; it measures nothing itself. Scripts/instructions.py
// runs it under callgrind at two iteration counts: the difference of the two totals divided by
// the difference of the counts is the instructions of one operation, with everything done once
// per process (start-up, building the container) cancelled out.

let usage = """
    usage: graft-instructions <scenario> <library> <iterations>
      scenario: \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))
      library: \(Library.allCases.map(\.rawValue).joined(separator: ", "))
    """
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3,
    let scenario = Scenario(rawValue: arguments[0]),
    let library = Library(rawValue: arguments[1]),
    let iterations = Int(arguments[2]), iterations >= 0
else {
    printToStandardError("\(usage)")
    exit(2)
}

if scenario.makesChildren && library == .handwritten {
    printToStandardError("\(scenario.rawValue) has no hand-written version: run it with graft or swinject")
    exit(2)
}
if library.resolvesTheRandomGraphOnly && scenario != .randomGraphResolveAgain {
    printToStandardError("\(library.rawValue) has only randomGraphResolveAgain")
    exit(2)
}

switch library {
case .handwritten: HandWrittenOperations.run(scenario, iterations: iterations)
case .graft: try GraftOperations.run(scenario, iterations: iterations)
case .graftObserved: try GraftOperations.run(scenario, iterations: iterations, observers: [IgnoringObserver()])
case .swinject: try SwinjectOperations.run(scenario, iterations: iterations)
case .dictionary:
    let graph = DictionaryRandomGraph()
    for _ in 0..<iterations { graph.resolveEach() }
case .graftUnspecialized:
    let container = try GraftOperations.makeRandomGraphInUse()
    for _ in 0..<iterations { try RandomGraph.resolveEachUnspecialized(from: container) }
}

/// Writes a line to standard error (file descriptor 2 directly: the C `stderr` global is not
/// concurrency-safe in Swift 6).
func printToStandardError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
