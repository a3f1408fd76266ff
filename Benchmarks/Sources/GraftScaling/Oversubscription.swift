import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Throughput at several thread counts, each library beside hand-written code in the same
/// repeat, so that a count above the machine's cores (threads preempted while they hold a lock)
/// can be compared with one at or below it.
enum Oversubscription {
    /// One row of the table: a loop, a thread count and a library, over every repeat.
    struct Row {
        var operationsPerSecond: [Double] = []
        /// This library's time per operation divided by hand-written code's, in the same repeat.
        var againstHandwritten: [Double] = []
        /// Processor nanoseconds per operation: every thread's processor time over every
        /// thread's operations. Other work on the machine takes wall-clock time from the loop but
        /// not processor time, while a thread that spins for a lock spends processor time.
        var cpuNanoseconds: [Double] = []
        /// This library's processor time per operation divided by hand-written code's.
        var cpuAgainstHandwritten: [Double] = []
        /// The slowest thread's iterations divided by the mean thread's, in each repeat.
        var slowestThreadShare: [Double] = []
    }

    /// Measures `loops` for `libraries` at each count of `threadCounts`, `repeats` times, and
    /// prints a Markdown table of medians with the load average before and after.
    ///
    /// Within a repeat every thread count runs every library in turn, hand-written code first,
    /// so the ratio of a library to hand-written code compares two runs a few seconds apart.
    static func measure(
        loops: [ScalingLoop],
        libraries: [ScalingLibrary],
        threadCounts: [Int],
        seconds: Double,
        repeats: Int
    ) throws {
        let before = loadAverage()
        var rows: [String: Row] = [:]
        for loop in loops {
            let measured = libraries.filter { $0.measures(loop) }
            // Made once per loop: what the timed part measures is the steady state.
            let steps = try measured.map { try $0.step(for: loop) }
            for _ in 0..<repeats {
                for threads in threadCounts {
                    var handwrittenRate: Double?
                    var handwrittenCPU: Double?
                    for (library, step) in zip(measured, steps) {
                        let each = Threads.runEach(count: threads, seconds: seconds, step)
                        let total = Double(each.reduce(0) { $0 + $1.iterations })
                        let rate = total / seconds
                        let cpu = each.reduce(0) { $0 + $1.cpuSeconds } * 1e9 / max(total, 1)
                        if library == .handwritten {
                            handwrittenRate = rate
                            handwrittenCPU = cpu
                        }
                        let key = "\(loop.rawValue)|\(threads)|\(library.rawValue)"
                        var row = rows[key] ?? Row()
                        row.operationsPerSecond.append(rate)
                        if let handwrittenRate, rate > 0 { row.againstHandwritten.append(handwrittenRate / rate) }
                        row.cpuNanoseconds.append(cpu)
                        if let handwrittenCPU, handwrittenCPU > 0 {
                            row.cpuAgainstHandwritten.append(cpu / handwrittenCPU)
                        }
                        let mean = total / Double(threads)
                        let slowest = each.map(\.iterations).min() ?? 0
                        row.slowestThreadShare.append(Double(slowest) / max(mean, 1))
                        rows[key] = row
                    }
                }
            }
        }
        let after = loadAverage()
        print("load average (1, 5, 15 min) before: \(before), after: \(after); \(cores()) cores online")
        print()
        print(
            "| loop | threads | library | ops/s | time / hand-written's | CPU ns per op | CPU / hand-written's "
                + "| slowest thread / mean |"
        )
        print("|---|---:|---|---:|---:|---:|---:|---:|")
        for loop in loops {
            for threads in threadCounts {
                for library in libraries {
                    guard let row = rows["\(loop.rawValue)|\(threads)|\(library.rawValue)"] else { continue }
                    let isBaseline = library == .handwritten
                    print(
                        "| \(loop.rawValue) | \(threads) | \(library.rawValue) | "
                            + "\(String(format: "%.0f", median(row.operationsPerSecond))) | "
                            + "\(isBaseline ? "" : spread(row.againstHandwritten)) | "
                            + "\(loop.describe(nanoseconds: median(row.cpuNanoseconds))) | "
                            + "\(isBaseline ? "" : spread(row.cpuAgainstHandwritten)) | "
                            + "\(String(format: "%.2f", median(row.slowestThreadShare))) |"
                    )
                }
            }
        }
    }

    /// The median ratio, with the smallest and largest.
    private static func spread(_ ratios: [Double]) -> String {
        guard let low = ratios.min(), let high = ratios.max() else { return "" }
        return String(format: "%.2fx (%.2f–%.2f)", median(ratios), low, high)
    }

    private static func loadAverage() -> String {
        var averages = [Double](repeating: 0, count: 3)
        guard getloadavg(&averages, 3) == 3 else { return "unknown" }
        return averages.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    }

    private static func cores() -> Int {
        ProcessInfo.processInfo.activeProcessorCount
    }
}
