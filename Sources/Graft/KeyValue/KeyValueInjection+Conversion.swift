extension KeyValueInjection {
    /// Converts an injected value to the type its key declares, or returns `nil`.
    ///
    /// In order: the value already has the type (or is a subclass, or conforms to the declared
    /// protocol); an `Optional`, `Array` or `Dictionary` whose elements convert; a number that the
    /// declared numeric type holds exactly (`3.0` → `Int` 3, but not `3.5`); a raw value of a
    /// `RawRepresentable` type such as an enum.
    static func convert<Value>(_ value: any Sendable, to type: Value.Type) -> Value? {
        if let value = value as? Value {
            return value
        }
        // Each branch unwraps before casting: `nil as? Value` would succeed when `Value` is an `Optional`.
        let converted: Any? =
            if let container = type as? any InjectionContainerValue.Type {
                container.convertedForInjection(value)
            } else if let integerType = type as? any BinaryInteger.Type {
                exactInteger(integerType, from: value)
            } else if let floatingType = type as? any BinaryFloatingPoint.Type {
                floatingPoint(floatingType, from: value)
            } else if let rawType = type as? any RawRepresentable.Type {
                fromRawValue(rawType, value)
            } else {
                nil
            }
        guard let converted else {
            return nil
        }
        return converted as? Value
    }
}

private func exactInteger<Target: BinaryInteger>(_ type: Target.Type, from value: any Sendable) -> Target? {
    if let integer = value as? any BinaryInteger {
        return exactInteger(integer, as: type)
    }
    if let floating = value as? any BinaryFloatingPoint {
        return exactInteger(floating, as: type)
    }
    return nil
}

private func exactInteger<Source: BinaryInteger, Target: BinaryInteger>(_ source: Source, as: Target.Type) -> Target? {
    Target(exactly: source)
}

private func exactInteger<Source: BinaryFloatingPoint, Target: BinaryInteger>(
    _ source: Source,
    as: Target.Type
) -> Target? {
    Target(exactly: source)
}

private func floatingPoint<Target: BinaryFloatingPoint>(_ type: Target.Type, from value: any Sendable) -> Target? {
    if let integer = value as? any BinaryInteger {
        return exactFloatingPoint(integer, as: type)
    }
    if let floating = value as? any BinaryFloatingPoint {
        return roundedFloatingPoint(floating, as: type)
    }
    return nil
}

private func exactFloatingPoint<Source: BinaryInteger, Target: BinaryFloatingPoint>(
    _ source: Source,
    as: Target.Type
) -> Target? {
    Target(exactly: source)
}

/// A fraction rarely has an exact binary form (`0.1`), so between floating-point types the
/// nearest value is taken; only a finite value that overflows to infinity fails.
private func roundedFloatingPoint<Source: BinaryFloatingPoint, Target: BinaryFloatingPoint>(
    _ source: Source,
    as: Target.Type
) -> Target? {
    let converted = Target(source)
    return source.isFinite && !converted.isFinite ? nil : converted
}

private func fromRawValue<Raw: RawRepresentable>(_ type: Raw.Type, _ value: any Sendable) -> Raw? {
    KeyValueInjection.convert(value, to: Raw.RawValue.self).flatMap(Raw.init(rawValue:))
}

/// A standard-library container whose contents convert one by one.
protocol InjectionContainerValue {
    /// The converted value as `Self`, boxed, or `nil`.
    static func convertedForInjection(_ value: any Sendable) -> Any?
}

/// What messages need to know about an `Optional` type or value without naming `Wrapped`.
protocol InjectionOptionalValue {
    static var injectionWrappedType: Any.Type { get }
    var isInjectionNil: Bool { get }
}

extension Optional: InjectionContainerValue {
    static func convertedForInjection(_ value: any Sendable) -> Any? {
        guard let wrapped = KeyValueInjection.convert(value, to: Wrapped.self) else {
            return nil
        }
        return Self.some(wrapped) as Any
    }
}

extension Optional: InjectionOptionalValue {
    static var injectionWrappedType: Any.Type { Wrapped.self }
    var isInjectionNil: Bool { self == nil }
}

extension Array: InjectionContainerValue {
    static func convertedForInjection(_ value: any Sendable) -> Any? {
        guard let items = value as? [any Sendable] else {
            return nil
        }
        var converted: [Element] = []
        converted.reserveCapacity(items.count)
        for item in items {
            guard let element = KeyValueInjection.convert(item, to: Element.self) else {
                return nil
            }
            converted.append(element)
        }
        return converted
    }
}

extension Dictionary: InjectionContainerValue {
    static func convertedForInjection(_ value: any Sendable) -> Any? {
        guard let entries = value as? [String: any Sendable] else {
            return nil
        }
        var converted: [Key: Value] = [:]
        converted.reserveCapacity(entries.count)
        for (key, entry) in entries {
            guard let key = KeyValueInjection.convert(key, to: Key.self),
                let entry = KeyValueInjection.convert(entry, to: Value.self)
            else {
                return nil
            }
            converted[key] = entry
        }
        return converted
    }
}

/// Why a value did not convert to its key's type, for the message a user reads.
struct ConversionFailure: Error {
    enum Reason {
        /// The value's type has nothing to do with the declared type.
        case wrongType
        /// A number that the declared numeric type can't hold exactly (`3.5` for `Int`).
        case inexactNumber
        /// A raw value that names no value of the declared type; `validValues` when it is `CaseIterable`.
        case notARawValue(validValues: [String]?)
    }

    /// The declared type, as messages show it.
    let expected: String
    /// The given value's type, or `"nil"` for a `nil` value.
    let got: String
    let reason: Reason

    init<Value>(value: any Sendable, expected: Value.Type) {
        self.expected = KeyValueInjection.typeName(Value.self)
        self.got = KeyValueInjection.describedType(of: value)
        let target = unwrappedType(Value.self)
        let isNumber = value is any BinaryInteger || value is any BinaryFloatingPoint
        if isNumber && (target is any BinaryInteger.Type || target is any BinaryFloatingPoint.Type) {
            reason = .inexactNumber
        } else if let rawType = target as? any RawRepresentable.Type, isRawValue(value, of: rawType) {
            reason = .notARawValue(validValues: validRawValues(of: target))
        } else {
            reason = .wrongType
        }
    }
}

private func unwrappedType(_ type: Any.Type) -> Any.Type {
    guard let optional = type as? any InjectionOptionalValue.Type else {
        return type
    }
    return unwrappedType(optional.injectionWrappedType)
}

private func isRawValue<Raw: RawRepresentable>(_ value: any Sendable, of type: Raw.Type) -> Bool {
    KeyValueInjection.convert(value, to: Raw.RawValue.self) != nil
}

private func validRawValues(of type: Any.Type) -> [String]? {
    guard let caseType = type as? any (CaseIterable & RawRepresentable).Type else {
        return nil
    }
    return rawValues(of: caseType)
}

private func rawValues<Cases: CaseIterable & RawRepresentable>(of type: Cases.Type) -> [String] {
    Cases.allCases.map { element in
        let raw = element.rawValue
        return raw is any StringProtocol ? "\"\(raw)\"" : "\(raw)"
    }
}

extension KeyValueInjection {
    /// The type of `value` as messages show it: `nil` for a `nil` optional.
    static func describedType(of value: any Sendable) -> String {
        if let optional = value as? any InjectionOptionalValue, optional.isInjectionNil {
            return "nil"
        }
        return KeyValueInjection.typeName(type(of: value))
    }
}
