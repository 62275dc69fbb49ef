import InfCalModel

/// Windows time zones as Outlook and Exchange write them in TZID: by their Windows name
/// (`W. Europe Standard Time`) or by the display name Windows shows for them (`(UTC+01:00)
/// Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna`), and the IANA zone each stands for. The
/// rows are CLDR's windowsZones.xml: its "001" (main) mapping of each Windows zone, and the
/// display name its comment gives (`WindowsZonesTests` checks the mapping against the copy
/// Python's icalendar carries).
enum WindowsZones {
    /// One Windows zone: its name, the IANA zone it stands for, its display name.
    struct Row {
        let windows: String
        let iana: String
        let display: String

        init(_ windows: String, _ iana: String, _ display: String) {
            self.windows = windows
            self.iana = iana
            self.display = display
        }
    }

    static let rows: [Row] = [
        Row("Dateline Standard Time", "Etc/GMT+12", "(UTC-12:00) International Date Line West"),
        Row("UTC-11", "Etc/GMT+11", "(UTC-11:00) Coordinated Universal Time-11"),
        Row("Aleutian Standard Time", "America/Adak", "(UTC-10:00) Aleutian Islands"),
        Row("Hawaiian Standard Time", "Pacific/Honolulu", "(UTC-10:00) Hawaii"),
        Row("Marquesas Standard Time", "Pacific/Marquesas", "(UTC-09:30) Marquesas Islands"),
        Row("Alaskan Standard Time", "America/Anchorage", "(UTC-09:00) Alaska"),
        Row("UTC-09", "Etc/GMT+9", "(UTC-09:00) Coordinated Universal Time-09"),
        Row("Pacific Standard Time (Mexico)", "America/Tijuana", "(UTC-08:00) Baja California"),
        Row("UTC-08", "Etc/GMT+8", "(UTC-08:00) Coordinated Universal Time-08"),
        Row("Pacific Standard Time", "America/Los_Angeles", "(UTC-08:00) Pacific Time (US & Canada)"),
        Row("US Mountain Standard Time", "America/Phoenix", "(UTC-07:00) Arizona"),
        Row("Mountain Standard Time (Mexico)", "America/Mazatlan", "(UTC-07:00) Chihuahua, La Paz, Mazatlan"),
        Row("Mountain Standard Time", "America/Denver", "(UTC-07:00) Mountain Time (US & Canada)"),
        Row("Yukon Standard Time", "America/Whitehorse", "(UTC-07:00) Yukon"),
        Row("Central America Standard Time", "America/Guatemala", "(UTC-06:00) Central America"),
        Row("Central Standard Time", "America/Chicago", "(UTC-06:00) Central Time (US & Canada)"),
        Row("Easter Island Standard Time", "Pacific/Easter", "(UTC-06:00) Easter Island"),
        Row("Central Standard Time (Mexico)", "America/Mexico_City", "(UTC-06:00) Guadalajara, Mexico City, Monterrey"),
        Row("Canada Central Standard Time", "America/Regina", "(UTC-06:00) Saskatchewan"),
        Row("SA Pacific Standard Time", "America/Bogota", "(UTC-05:00) Bogota, Lima, Quito, Rio Branco"),
        Row("Eastern Standard Time (Mexico)", "America/Cancun", "(UTC-05:00) Chetumal"),
        Row("Eastern Standard Time", "America/New_York", "(UTC-05:00) Eastern Time (US & Canada)"),
        Row("Haiti Standard Time", "America/Port-au-Prince", "(UTC-05:00) Haiti"),
        Row("Cuba Standard Time", "America/Havana", "(UTC-05:00) Havana"),
        Row("US Eastern Standard Time", "America/Indianapolis", "(UTC-05:00) Indiana (East)"),
        Row("Turks And Caicos Standard Time", "America/Grand_Turk", "(UTC-05:00) Turks and Caicos"),
        Row("Paraguay Standard Time", "America/Asuncion", "(UTC-04:00) Asuncion"),
        Row("Atlantic Standard Time", "America/Halifax", "(UTC-04:00) Atlantic Time (Canada)"),
        Row("Venezuela Standard Time", "America/Caracas", "(UTC-04:00) Caracas"),
        Row("Central Brazilian Standard Time", "America/Cuiaba", "(UTC-04:00) Cuiaba"),
        Row("SA Western Standard Time", "America/La_Paz", "(UTC-04:00) Georgetown, La Paz, Manaus, San Juan"),
        Row("Pacific SA Standard Time", "America/Santiago", "(UTC-04:00) Santiago"),
        Row("Newfoundland Standard Time", "America/St_Johns", "(UTC-03:30) Newfoundland"),
        Row("Tocantins Standard Time", "America/Araguaina", "(UTC-03:00) Araguaina"),
        Row("E. South America Standard Time", "America/Sao_Paulo", "(UTC-03:00) Brasilia"),
        Row("SA Eastern Standard Time", "America/Cayenne", "(UTC-03:00) Cayenne, Fortaleza"),
        Row("Argentina Standard Time", "America/Buenos_Aires", "(UTC-03:00) City of Buenos Aires"),
        Row("Greenland Standard Time", "America/Godthab", "(UTC-03:00) Greenland"),
        Row("Montevideo Standard Time", "America/Montevideo", "(UTC-03:00) Montevideo"),
        Row("Magallanes Standard Time", "America/Punta_Arenas", "(UTC-03:00) Punta Arenas"),
        Row("Saint Pierre Standard Time", "America/Miquelon", "(UTC-03:00) Saint Pierre and Miquelon"),
        Row("Bahia Standard Time", "America/Bahia", "(UTC-03:00) Salvador"),
        Row("UTC-02", "Etc/GMT+2", "(UTC-02:00) Coordinated Universal Time-02"),
        Row("Azores Standard Time", "Atlantic/Azores", "(UTC-01:00) Azores"),
        Row("Cape Verde Standard Time", "Atlantic/Cape_Verde", "(UTC-01:00) Cabo Verde Is."),
        Row("UTC", "Etc/UTC", "(UTC) Coordinated Universal Time"),
        Row("GMT Standard Time", "Europe/London", "(UTC+00:00) Dublin, Edinburgh, Lisbon, London"),
        Row("Greenwich Standard Time", "Atlantic/Reykjavik", "(UTC+00:00) Monrovia, Reykjavik"),
        Row("Sao Tome Standard Time", "Africa/Sao_Tome", "(UTC+00:00) Sao Tome"),
        Row("Morocco Standard Time", "Africa/Casablanca", "(UTC+01:00) Casablanca"),
        Row("W. Europe Standard Time", "Europe/Berlin", "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"),
        Row("Central Europe Standard Time", "Europe/Budapest", "(UTC+01:00) Belgrade, Bratislava, Budapest, Ljubljana, Prague"),
        Row("Romance Standard Time", "Europe/Paris", "(UTC+01:00) Brussels, Copenhagen, Madrid, Paris"),
        Row("Central European Standard Time", "Europe/Warsaw", "(UTC+01:00) Sarajevo, Skopje, Warsaw, Zagreb"),
        Row("W. Central Africa Standard Time", "Africa/Lagos", "(UTC+01:00) West Central Africa"),
        Row("Jordan Standard Time", "Asia/Amman", "(UTC+02:00) Amman"),
        Row("GTB Standard Time", "Europe/Bucharest", "(UTC+02:00) Athens, Bucharest"),
        Row("Middle East Standard Time", "Asia/Beirut", "(UTC+02:00) Beirut"),
        Row("Egypt Standard Time", "Africa/Cairo", "(UTC+02:00) Cairo"),
        Row("E. Europe Standard Time", "Europe/Chisinau", "(UTC+02:00) Chisinau"),
        Row("Syria Standard Time", "Asia/Damascus", "(UTC+02:00) Damascus"),
        Row("West Bank Standard Time", "Asia/Hebron", "(UTC+02:00) Gaza, Hebron"),
        Row("South Africa Standard Time", "Africa/Johannesburg", "(UTC+02:00) Harare, Pretoria"),
        Row("FLE Standard Time", "Europe/Kiev", "(UTC+02:00) Helsinki, Kyiv, Riga, Sofia, Tallinn, Vilnius"),
        Row("Israel Standard Time", "Asia/Jerusalem", "(UTC+02:00) Jerusalem"),
        Row("South Sudan Standard Time", "Africa/Juba", "(UTC+02:00) Juba"),
        Row("Kaliningrad Standard Time", "Europe/Kaliningrad", "(UTC+02:00) Kaliningrad"),
        Row("Sudan Standard Time", "Africa/Khartoum", "(UTC+02:00) Khartoum"),
        Row("Libya Standard Time", "Africa/Tripoli", "(UTC+02:00) Tripoli"),
        Row("Namibia Standard Time", "Africa/Windhoek", "(UTC+02:00) Windhoek"),
        Row("Arabic Standard Time", "Asia/Baghdad", "(UTC+03:00) Baghdad"),
        Row("Turkey Standard Time", "Europe/Istanbul", "(UTC+03:00) Istanbul"),
        Row("Arab Standard Time", "Asia/Riyadh", "(UTC+03:00) Kuwait, Riyadh"),
        Row("Belarus Standard Time", "Europe/Minsk", "(UTC+03:00) Minsk"),
        Row("Russian Standard Time", "Europe/Moscow", "(UTC+03:00) Moscow, St. Petersburg"),
        Row("E. Africa Standard Time", "Africa/Nairobi", "(UTC+03:00) Nairobi"),
        Row("Iran Standard Time", "Asia/Tehran", "(UTC+03:30) Tehran"),
        Row("Arabian Standard Time", "Asia/Dubai", "(UTC+04:00) Abu Dhabi, Muscat"),
        Row("Astrakhan Standard Time", "Europe/Astrakhan", "(UTC+04:00) Astrakhan, Ulyanovsk"),
        Row("Azerbaijan Standard Time", "Asia/Baku", "(UTC+04:00) Baku"),
        Row("Russia Time Zone 3", "Europe/Samara", "(UTC+04:00) Izhevsk, Samara"),
        Row("Mauritius Standard Time", "Indian/Mauritius", "(UTC+04:00) Port Louis"),
        Row("Saratov Standard Time", "Europe/Saratov", "(UTC+04:00) Saratov"),
        Row("Georgian Standard Time", "Asia/Tbilisi", "(UTC+04:00) Tbilisi"),
        Row("Volgograd Standard Time", "Europe/Volgograd", "(UTC+04:00) Volgograd"),
        Row("Caucasus Standard Time", "Asia/Yerevan", "(UTC+04:00) Yerevan"),
        Row("Afghanistan Standard Time", "Asia/Kabul", "(UTC+04:30) Kabul"),
        Row("West Asia Standard Time", "Asia/Tashkent", "(UTC+05:00) Ashgabat, Tashkent"),
        Row("Ekaterinburg Standard Time", "Asia/Yekaterinburg", "(UTC+05:00) Ekaterinburg"),
        Row("Pakistan Standard Time", "Asia/Karachi", "(UTC+05:00) Islamabad, Karachi"),
        Row("Qyzylorda Standard Time", "Asia/Qyzylorda", "(UTC+05:00) Qyzylorda"),
        Row("India Standard Time", "Asia/Calcutta", "(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi"),
        Row("Sri Lanka Standard Time", "Asia/Colombo", "(UTC+05:30) Sri Jayawardenepura"),
        Row("Nepal Standard Time", "Asia/Katmandu", "(UTC+05:45) Kathmandu"),
        Row("Central Asia Standard Time", "Asia/Bishkek", "(UTC+06:00) Astana"),
        Row("Bangladesh Standard Time", "Asia/Dhaka", "(UTC+06:00) Dhaka"),
        Row("Omsk Standard Time", "Asia/Omsk", "(UTC+06:00) Omsk"),
        Row("Myanmar Standard Time", "Asia/Rangoon", "(UTC+06:30) Yangon (Rangoon)"),
        Row("SE Asia Standard Time", "Asia/Bangkok", "(UTC+07:00) Bangkok, Hanoi, Jakarta"),
        Row("Altai Standard Time", "Asia/Barnaul", "(UTC+07:00) Barnaul, Gorno-Altaysk"),
        Row("W. Mongolia Standard Time", "Asia/Hovd", "(UTC+07:00) Hovd"),
        Row("North Asia Standard Time", "Asia/Krasnoyarsk", "(UTC+07:00) Krasnoyarsk"),
        Row("N. Central Asia Standard Time", "Asia/Novosibirsk", "(UTC+07:00) Novosibirsk"),
        Row("Tomsk Standard Time", "Asia/Tomsk", "(UTC+07:00) Tomsk"),
        Row("China Standard Time", "Asia/Shanghai", "(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi"),
        Row("North Asia East Standard Time", "Asia/Irkutsk", "(UTC+08:00) Irkutsk"),
        Row("Singapore Standard Time", "Asia/Singapore", "(UTC+08:00) Kuala Lumpur, Singapore"),
        Row("W. Australia Standard Time", "Australia/Perth", "(UTC+08:00) Perth"),
        Row("Taipei Standard Time", "Asia/Taipei", "(UTC+08:00) Taipei"),
        Row("Ulaanbaatar Standard Time", "Asia/Ulaanbaatar", "(UTC+08:00) Ulaanbaatar"),
        Row("Aus Central W. Standard Time", "Australia/Eucla", "(UTC+08:45) Eucla"),
        Row("Transbaikal Standard Time", "Asia/Chita", "(UTC+09:00) Chita"),
        Row("Tokyo Standard Time", "Asia/Tokyo", "(UTC+09:00) Osaka, Sapporo, Tokyo"),
        Row("North Korea Standard Time", "Asia/Pyongyang", "(UTC+09:00) Pyongyang"),
        Row("Korea Standard Time", "Asia/Seoul", "(UTC+09:00) Seoul"),
        Row("Yakutsk Standard Time", "Asia/Yakutsk", "(UTC+09:00) Yakutsk"),
        Row("Cen. Australia Standard Time", "Australia/Adelaide", "(UTC+09:30) Adelaide"),
        Row("AUS Central Standard Time", "Australia/Darwin", "(UTC+09:30) Darwin"),
        Row("E. Australia Standard Time", "Australia/Brisbane", "(UTC+10:00) Brisbane"),
        Row("AUS Eastern Standard Time", "Australia/Sydney", "(UTC+10:00) Canberra, Melbourne, Sydney"),
        Row("West Pacific Standard Time", "Pacific/Port_Moresby", "(UTC+10:00) Guam, Port Moresby"),
        Row("Tasmania Standard Time", "Australia/Hobart", "(UTC+10:00) Hobart"),
        Row("Vladivostok Standard Time", "Asia/Vladivostok", "(UTC+10:00) Vladivostok"),
        Row("Lord Howe Standard Time", "Australia/Lord_Howe", "(UTC+10:30) Lord Howe Island"),
        Row("Bougainville Standard Time", "Pacific/Bougainville", "(UTC+11:00) Bougainville Island"),
        Row("Russia Time Zone 10", "Asia/Srednekolymsk", "(UTC+11:00) Chokurdakh"),
        Row("Magadan Standard Time", "Asia/Magadan", "(UTC+11:00) Magadan"),
        Row("Norfolk Standard Time", "Pacific/Norfolk", "(UTC+11:00) Norfolk Island"),
        Row("Sakhalin Standard Time", "Asia/Sakhalin", "(UTC+11:00) Sakhalin"),
        Row("Central Pacific Standard Time", "Pacific/Guadalcanal", "(UTC+11:00) Solomon Is., New Caledonia"),
        Row("Russia Time Zone 11", "Asia/Kamchatka", "(UTC+12:00) Anadyr, Petropavlovsk-Kamchatsky"),
        Row("New Zealand Standard Time", "Pacific/Auckland", "(UTC+12:00) Auckland, Wellington"),
        Row("UTC+12", "Etc/GMT-12", "(UTC+12:00) Coordinated Universal Time+12"),
        Row("Fiji Standard Time", "Pacific/Fiji", "(UTC+12:00) Fiji"),
        Row("Chatham Islands Standard Time", "Pacific/Chatham", "(UTC+12:45) Chatham Islands"),
        Row("UTC+13", "Etc/GMT-13", "(UTC+13:00) Coordinated Universal Time+13"),
        Row("Tonga Standard Time", "Pacific/Tongatapu", "(UTC+13:00) Nuku'alofa"),
        Row("Samoa Standard Time", "Pacific/Apia", "(UTC+13:00) Samoa"),
        Row("Line Islands Standard Time", "Pacific/Kiritimati", "(UTC+14:00) Kiritimati Island"),
    ]

    /// The IANA zone of each Windows name.
    static let table: [String: String] = {
        var table: [String: String] = [:]
        for row in rows { table[row.windows] = row.iana }
        return table
    }()

    /// A display name's offset and places, as `displayKey` makes them, for each row.
    private static let displayKeys: [(offset: String, places: [String], iana: String)] = rows.compactMap { row in
        displayKey(row.display).map { ($0.offset, $0.places, row.iana) }
    }

    /// The offset (`+01:00`) and the places (lower case, in order) of a display name such as
    /// `(UTC+01:00) Amsterdam, Berlin`, or as older Windows wrote them, `(GMT+01:00) ...` and
    /// `(GMT+01.00) Amsterdam / Berlin / ...`; `(UTC)` is `+00:00`. Nil when `name` does not
    /// begin with such an offset in brackets.
    static func displayKey(_ name: String) -> (offset: String, places: [String])? {
        let text = name.trimmingSpaces
        guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else { return nil }
        var offset = String(text[text.index(after: text.startIndex)..<close])
        guard offset.hasPrefix("UTC") || offset.hasPrefix("GMT") else { return nil }
        offset = String(offset.dropFirst(3))
        if offset.isEmpty { offset = "+00:00" }
        offset = offset.replacingOccurrences(of: ".", with: ":")
        guard offset.count == 6, offset.first == "+" || offset.first == "-" else { return nil }
        let places = text[text.index(after: close)...].split(whereSeparator: { $0 == "," || $0 == "/" }).map {
            $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ").lowercased()
        }.filter { !$0.isEmpty }
        return (offset, places)
    }

    /// The IANA zone of a Windows display name: the row with the same offset and places, else
    /// the one row with that offset that shares the most places with it (Windows renames its
    /// display names now and then: `(UTC+03:00) Moscow, St. Petersburg, Volgograd` is today's
    /// `(UTC+03:00) Moscow, St. Petersburg`). Nil when no row, or more than one, fits.
    static func iana(forDisplayName name: String) -> String? {
        guard let key = displayKey(name) else { return nil }
        var best: (shared: Int, iana: String?) = (0, nil)
        for row in displayKeys where row.offset == key.offset {
            if row.places == key.places { return row.iana }
            let shared = row.places.filter { key.places.contains($0) }.count
            if shared > best.shared {
                best = (shared, row.iana)
            } else if shared == best.shared, shared > 0 {
                best.iana = nil // two rows fit as well: neither is taken
            }
        }
        return best.iana
    }
}
