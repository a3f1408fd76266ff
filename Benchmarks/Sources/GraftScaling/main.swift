import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// graft-scaling <seconds> <repeats> [loop] [library]: the time of one iteration on one thread,
// and how resolving scales from one thread to two, for Graft and for hand-written code in the
// same process, so both meet the same machine at the same time.
//
// Each measurement runs a loop on one thread for `seconds`, then the same loop on two threads
// at once for `seconds`; the iterations the threads finished, summed, divided by the one
// thread's, is the scaling. Every loop ends by its deadline. The loops:
//   singleton: resolve an existing singleton
//   transient: resolve a transient with no dependencies
//   graph:     resolve the transient graph A(B(D), C(D))
//   graphSingletonLeaf: the same graph with D an existing singleton
//   mixed:     the singleton, then the graph (the loop of the engine issue)
//   requestScope: make a scope, resolve a scoped and a transient service, close it
//   randomGraphResolveAgain: resolve each of the random graph's 200 existing singletons once,
//              each through its own type (also a dictionary of them: library "dictionary")
// Medians of `repeats` runs are printed as a Markdown table. Naming a loop (and a library)
// runs only that one, for a profiler.
//
// graft-scaling <seconds> <repeats> [loop] [library] --threads 2,8: instead, the operations per
// second at each thread count, every library beside hand-written code in the same repeat, and
// each library's time per operation divided by hand-written code's. With more threads than
// cores, a thread is preempted while it holds a lock; if waiting for a lock burns the waiters'
// time slices, Graft falls further behind hand-written code than it is at two threads.

var arguments = Array(CommandLine.arguments.dropFirst())
var threadCounts: [Int]?
if let flag = arguments.firstIndex(of: "--threads") {
    // No counts, or none from 1 to 256, leaves the list empty: the usage below.
    let counts = flag + 1 < arguments.count ? arguments[flag + 1] : ""
    threadCounts = counts.split(separator: ",").compactMap { Int($0) }.filter { (1...256).contains($0) }
    arguments.removeSubrange(flag...min(flag + 1, arguments.count - 1))
}
guard (2...4).contains(arguments.count), let seconds = Double(arguments[0]), seconds > 0, seconds <= 10,
    let repeats = Int(arguments[1]), (1...15).contains(repeats), threadCounts?.isEmpty != true
else {
    let line =
        "usage: graft-scaling <seconds (0-10]> <repeats 1-15> [singleton|transient|graph|graphSingletonLeaf|mixed|requestScope|randomGraphResolveAgain] [handwritten|graft|\"handwritten, returned\"|dictionary] [--threads 2,8]\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

var rows: [String] = []
let loops = arguments.count > 2 ? ScalingLoop.allCases.filter { $0.rawValue == arguments[2] } : ScalingLoop.allCases
let libraries =
    arguments.count > 3
    ? ScalingLibrary.allCases.filter { $0.rawValue == arguments[3] } : ScalingLibrary.allCases
if let threadCounts {
    // Hand-written code always runs, first: each library is compared with it.
    let compared = [ScalingLibrary.handwritten] + libraries.filter { $0 != .handwritten }
    try Oversubscription.measure(
        loops: loops,
        libraries: compared,
        threadCounts: threadCounts,
        seconds: seconds,
        repeats: repeats
    )
    exit(0)
}
for loop in loops {
    for library in libraries where library.measures(loop) {
        var ratios: [Double] = []
        var nanoseconds: [Double] = []
        for _ in 0..<repeats {
            let step = try library.step(for: loop)
            let one = Threads.run(count: 1, seconds: seconds, step)
            let two = Threads.run(count: 2, seconds: seconds, step)
            nanoseconds.append(seconds * 1e9 / Double(max(one, 1)))
            ratios.append(Double(two) / Double(max(one, 1)))
        }
        rows.append(
            "| \(loop.rawValue) | \(library.rawValue) | \(loop.describe(nanoseconds: median(nanoseconds))) | "
                + "\(String(format: "%.2f", median(ratios)))x |"
        )
    }
}
print("| loop | library | 1 thread (ns per iteration) | 2 threads / 1 thread |")
print("|---|---|---:|---:|")
for row in rows { print(row) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
