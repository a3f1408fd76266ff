internal import Configuration

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// What looking up one key of a declared type found.
enum ConfigValueReading {
    /// A value of the type, or of the raw type the declared type converts from.
    case value(any Sendable)
    /// No provider has the key.
    case absent
    /// A provider has the key, but its value is not of the type.
    case unreadable
    /// Configuration has no way to supply the type.
    case unsupported

    /// Looks `key` up as the configuration type that `type` is read from.
    ///
    /// An integer is read as `Int` and a floating-point number as `Double`, then narrowed by
    /// Graft's exact conversion; an enum is read as its raw value; `Duration` (whole seconds),
    /// `URL`, `UUID` and `Date` (ISO 8601) the way swift-configuration reads them.
    static func read(_ type: any Any.Type, at key: ConfigKey, from reader: ConfigSnapshotReader) -> Self {
        if let optional = type as? any OptionalSetting.Type {
            return read(optional.wrappedSettingType, at: key, from: reader)
        }
        let found: (any Sendable)?
        switch type {
        case is String.Type: found = reader.string(forKey: key)
        case is Bool.Type: found = reader.bool(forKey: key)
        case is [String].Type: found = reader.stringArray(forKey: key)
        case is [Int].Type: found = reader.intArray(forKey: key)
        case is [Double].Type: found = reader.doubleArray(forKey: key)
        case is [Bool].Type: found = reader.boolArray(forKey: key)
        case is [UInt8].Type: found = reader.bytes(forKey: key)
        case is Duration.Type: found = reader.int(forKey: key, as: Duration.self)
        case is URL.Type: found = reader.string(forKey: key, as: URL.self)
        case is UUID.Type: found = reader.string(forKey: key, as: UUID.self)
        case is Date.Type: found = reader.string(forKey: key, as: Date.self)
        case is any BinaryInteger.Type: found = reader.int(forKey: key)
        case is any BinaryFloatingPoint.Type: found = reader.double(forKey: key)
        case let rawType as any RawRepresentable.Type:
            return read(rawValueType(of: rawType), at: key, from: reader)
        default: return .unsupported
        }
        guard let found else { return presence(of: key, in: reader) }
        return .value(found)
    }

    /// `.unreadable` when the key holds a value of any configuration type, else `.absent`.
    private static func presence(of key: ConfigKey, in reader: ConfigSnapshotReader) -> Self {
        let lookups: [(ConfigKey, ConfigSnapshotReader) -> Bool] = [
            { reader, snapshot in snapshot.string(forKey: reader) != nil },
            { reader, snapshot in snapshot.int(forKey: reader) != nil },
            { reader, snapshot in snapshot.double(forKey: reader) != nil },
            { reader, snapshot in snapshot.bool(forKey: reader) != nil },
            { reader, snapshot in snapshot.stringArray(forKey: reader) != nil },
            { reader, snapshot in snapshot.intArray(forKey: reader) != nil },
            { reader, snapshot in snapshot.doubleArray(forKey: reader) != nil },
            { reader, snapshot in snapshot.boolArray(forKey: reader) != nil },
            { reader, snapshot in snapshot.bytes(forKey: reader) != nil },
        ]
        return lookups.contains { $0(key, reader) } ? .unreadable : .absent
    }
}

private func rawValueType<Raw: RawRepresentable>(of type: Raw.Type) -> any Any.Type {
    Raw.RawValue.self
}

/// An `Optional` setting is read as its wrapped type.
protocol OptionalSetting {
    static var wrappedSettingType: any Any.Type { get }
}

extension Optional: OptionalSetting {
    static var wrappedSettingType: any Any.Type { Wrapped.self }
}
