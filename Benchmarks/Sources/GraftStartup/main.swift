import CHeapUsage
import GeneratedServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// graft-startup <library> <count>: registers <count> distinct generated services with one
// library, builds, resolves the last one, and prints how long that took and how much heap the
// container holds, as one line of JSON. Run it as a new process each time: the first
// registration of a type in a process pays for run-time work (generic metadata, conformance
// lookups) that the long-running ordo-one harness pays only once. Scripts/startup.py runs it.

let usage = "usage: graft-startup <\(StartupLibrary.allCases.map(\.rawValue).joined(separator: "|"))> <count>"
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2,
    let library = StartupLibrary(rawValue: arguments[arguments.startIndex]),
    let count = Int(arguments[arguments.startIndex + 1]),
    (0...generatedServiceTypes.count).contains(count)
else {
    printToStandardError("\(usage)\n<count> is at most \(generatedServiceTypes.count), the number of generated types")
    exit(2)
}

// Made before the clock starts: the list of types is the app's code, not the container's work.
let types = generatedServiceTypes.prefix(count)
let clock = ContinuousClock()
let heapBefore = graft_heap_bytes_in_use()
let start = clock.now
let started = try library.start(types)
let elapsed = clock.now - start
let heapAfter = graft_heap_bytes_in_use()
withExtendedLifetime(started) {
    let report = StartupReport(
        library: library,
        services: count,
        elapsed: elapsed,
        heapBytes: Int(heapAfter) - Int(heapBefore)
    )
    print(report.json)
}

/// Writes a line to standard error (file descriptor 2 directly: the C `stderr` global is not
/// concurrency-safe in Swift 6).
func printToStandardError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
