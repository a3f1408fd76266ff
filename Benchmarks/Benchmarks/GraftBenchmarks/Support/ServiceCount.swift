/// The registration sizes of scenario 6.
enum ServiceCount {
    static let all = [1_000, 10_000, 30_000]
}
